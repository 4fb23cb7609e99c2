// One page as the crawler takes it: fetched plainly (no redirect followed: the target comes back as the
// page's only link, for the crawl to check and de-duplicate) or rendered in Chromium, then read for its
// links and, as asked, Markdown, HTML, and metadata. A plainly fetched document (PDF, DOCX, XLSX, CSV, JSON,
// text) is read to Markdown instead (page-document.ts); images and archives come back with no Markdown.
import type { HttpClient } from '../net/http-client.js';
import type { ToolContext } from '../registry/define-tool.js';
import { ToolError } from '../errors.js';
import { blockedCause, fetchBytes } from './fetch-text.js';
import { parseHtml, type PageMetadata } from './html-page.js';
import { pageBodyKind, readPageDocument } from './page-document.js';
import { renderPage } from './rendered-page.js';
import { assertNoBotWall } from '../extract/bot-wall/index.js';

export type PageFormat = 'markdown' | 'links' | 'content' | 'metadata';

const PAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Largest HTML returned as `content` (the page is still read whole for its links). */
const CONTENT_MAX_CHARS = 2_000_000;

export interface PageInput {
  url: string;
  depth: number;
  render: boolean;
  formats: PageFormat[];
  timeout_ms: number;
}

export interface PageResult {
  url: string;
  depth: number;
  final_url: string;
  status_code: number;
  content_type: string;
  /** A redirect's target (plain fetches do not follow redirects); null otherwise. */
  redirect: string | null;
  /** The links the crawl follows (absolute, in page order); empty when the page says nofollow. */
  links: string[];
  markdown?: string;
  /** The page's HTML; empty for a document (its text is in `markdown`). */
  content?: string;
  metadata?: PageMetadata & { pages?: number };
}

export async function fetchPage(ctx: ToolContext, http: HttpClient, input: PageInput): Promise<PageResult> {
  let html = '';
  let finalUrl = input.url;
  let status = 0;
  let contentType = '';
  let redirect: string | null = null;
  let headers: Record<string, string | string[] | undefined> = {};
  let documentBytes: Uint8Array | undefined;
  if (input.render) {
    const page = await renderPage(ctx, input.url, input.timeout_ms);
    ({ html, finalUrl } = page);
    status = page.status ?? 0;
    contentType = 'text/html';
  } else {
    try {
      const got = await fetchBytes(http, input.url, { signal: ctx.signal, timeoutMs: input.timeout_ms, maxBytes: PAGE_MAX_BYTES });
      status = got.status;
      contentType = got.contentType;
      redirect = got.location;
      const kind = pageBodyKind(got.body, got.contentType, input.url);
      if (kind === 'html') html = got.body.toString('utf8');
      else if (kind === 'document') documentBytes = got.body;
      headers = got.headers;
    } catch (err) {
      if (ctx.signal.aborted) throw err;
      const blocked = blockedCause(err);
      if (blocked) throw blocked;
      // A timeout or a reset: worth another attempt (the engine retries transient failures with backoff).
      throw new ToolError(`Could not fetch ${input.url}: ${(err as Error).message}`, 'transient');
    }
    // A challenge, captcha or block page fails the page (BLOCKED_BY_SITE, refunded); the crawl goes on.
    // (A rendered page was checked by the browser tools' wrapper.)
    if (html || status === 429) assertNoBotWall(input.url, html, { status, headers });
  }
  const result: PageResult = {
    url: input.url,
    depth: input.depth,
    final_url: finalUrl,
    status_code: status,
    content_type: contentType,
    redirect,
    links: redirect ? [redirect] : [],
  };
  if (documentBytes) return withDocument(ctx, result, documentBytes, input.formats);
  if (!html) return withEmptyFormats(result, input.formats);
  const parsed = parseHtml(html, finalUrl);
  if (!parsed.nofollow) result.links = parsed.links.map((l) => l.url);
  if (input.formats.includes('metadata')) result.metadata = parsed.metadata;
  if (input.formats.includes('content')) result.content = html.slice(0, CONTENT_MAX_CHARS);
  if (input.formats.includes('markdown')) {
    // In the extraction workers, like browser.markdown: a large page never holds the service's thread.
    const { markdownInWorker } = await import('../extract/markdown-pool.js');
    result.markdown = (await markdownInWorker(html, parsed.metadata.title ?? '', 'main', ctx.signal)).markdown;
  }
  return result;
}

/** A document's Markdown, its title (and a PDF's page count) as metadata; no links: the readers give none. */
async function withDocument(ctx: ToolContext, result: PageResult, bytes: Uint8Array, formats: readonly PageFormat[]): Promise<PageResult> {
  // `content` is a page's HTML, and a document has none.
  if (formats.includes('content')) result.content = '';
  if (!formats.includes('markdown') && !formats.includes('metadata')) return result;
  const doc = await readPageDocument(ctx, bytes, result.content_type, result.final_url);
  if (formats.includes('markdown')) result.markdown = doc.markdown;
  if (formats.includes('metadata')) {
    result.metadata = { title: doc.title, description: null, canonical: null, language: null, og: {}, robots: null };
    if (doc.pages !== undefined) result.metadata.pages = doc.pages;
  }
  return result;
}

function withEmptyFormats(result: PageResult, formats: readonly PageFormat[]): PageResult {
  if (formats.includes('markdown')) result.markdown = '';
  return result;
}
