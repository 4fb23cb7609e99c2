// The document path of the page tools: a URL whose response is a file (PDF, DOCX, XLSX, CSV, JSON, XML,
// text) rather than a page is fetched again, outside the browser, through the guarded HTTP client (every
// hop and address checked, size and time capped), with the caller's headers, user agent and cookies.
import { ToolError } from '../errors.js';
import type { ToolContext } from '../registry/define-tool.js';
import { guardedGet, type GuardedGetResult } from '../net/guarded-get.js';
import { httpClientService } from '../net/http-client.js';
import type { PageOptions } from './page-options.js';

/** The largest document read. */
export const MAX_DOCUMENT_BYTES = 50_000_000;

/** Whether a main document of this Content-Type is read as a document rather than rendered as a page. */
export function isDocumentContentType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const mime = contentType.split(';')[0]!.trim().toLowerCase();
  if (mime === '' || mime === 'text/html' || mime === 'application/xhtml+xml') return false;
  // Chromium shows images and media itself; they are not documents with text.
  return !/^(image|video|audio)\//.test(mime);
}

/** The Cookie header for `url` from the caller's cookies (those for its host, or given without a place). */
export function cookieHeader(url: URL, cookies: PageOptions['cookies']): string | undefined {
  const host = url.hostname.toLowerCase();
  const matching = (cookies ?? []).filter((c) => {
    if (c.secure && url.protocol !== 'https:') return false;
    if (c.url !== undefined) return new URL(c.url).hostname.toLowerCase() === host;
    if (c.domain === undefined) return true;
    const domain = c.domain.toLowerCase().replace(/^\./, '');
    return host === domain || host.endsWith(`.${domain}`);
  });
  return matching.length > 0 ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
}

/** The document at input.url; a non-2xx answer is the caller's to fix (there is no document to read). */
export async function fetchDocument(ctx: ToolContext, input: PageOptions & { url: string }, timeoutMs: number): Promise<GuardedGetResult> {
  const fetched = await fetchResponse(ctx, input, timeoutMs);
  if (fetched.status < 200 || fetched.status >= 300)
    throw new ToolError(`${fetched.url} answered HTTP ${fetched.status}; there is no document to read.`, 'input');
  return fetched;
}

async function fetchResponse(ctx: ToolContext, input: PageOptions & { url: string }, timeoutMs: number): Promise<GuardedGetResult> {
  const client = await ctx.use(httpClientService);
  const headers: Record<string, string> = { ...input.headers };
  if (input.user_agent !== undefined) headers['user-agent'] = input.user_agent;
  const cookie = cookieHeader(new URL(input.url), input.cookies);
  if (cookie !== undefined) headers.cookie = cookie;
  return guardedGet(client, input.url, { headers, maxBytes: MAX_DOCUMENT_BYTES, timeoutMs, signal: ctx.signal });
}
