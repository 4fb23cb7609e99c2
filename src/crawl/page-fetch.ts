// One page as the crawler takes it: fetched plainly (no redirect followed: the target comes back as the
// page's only link, for the crawl to check and de-duplicate) or rendered in Chromium, then read for its
// links and, as asked, Markdown, HTML, and metadata.
import type { HttpClient } from '../net/http-client.js';
import type { ToolContext } from '../registry/define-tool.js';
import { ToolError } from '../errors.js';
import { blockedCause, fetchText } from './fetch-text.js';
import { parseHtml, type PageMetadata } from './html-page.js';
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
  content?: string;
  metadata?: PageMetadata;
}

export async function fetchPage(ctx: ToolContext, http: HttpClient, input: PageInput): Promise<PageResult> {
  let html = '';
  let finalUrl = input.url;
  let status = 0;
  let contentType = '';
  let redirect: string | null = null;
  let headers: Record<string, string | string[] | undefined> = {};
  if (input.render) {
    const page = await renderPage(ctx, input.url, input.timeout_ms);
    ({ html, finalUrl } = page);
    status = page.status ?? 0;
    contentType = 'text/html';
  } else {
    try {
      const got = await fetchText(http, input.url, { signal: ctx.signal, timeoutMs: input.timeout_ms, maxBytes: PAGE_MAX_BYTES });
      status = got.status;
      contentType = got.contentType;
      redirect = got.location;
      if (/html|xml/i.test(got.contentType) || got.contentType === '') html = got.body;
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

function withEmptyFormats(result: PageResult, formats: readonly PageFormat[]): PageResult {
  if (formats.includes('markdown')) result.markdown = '';
  return result;
}
