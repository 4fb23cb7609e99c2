// Turns what Playwright and Chromium report into the task errors the engine understands: a blocked
// target or a bad URL is the caller's input, a timeout or a crashed browser is worth a retry.
import { playwright } from './playwright.js';
import { ToolError } from '../errors.js';
import { BlockedTargetError } from '../net/errors.js';
import type { GuardedProxy } from './guarded-proxy.js';
import { BrowserClosedError, PageCrashedError } from './pool.js';
import { crashMessage } from './crash-reasons.js';

/** The main document was a file download (Chromium's downloads are off): a document reader may take over. */
export class DownloadError extends ToolError {
  constructor(
    message: string,
    readonly url: string,
  ) {
    // Named like every other task error: callers and tests match on ToolError.
    super(message, 'input');
  }
}

const CLOSED = /Target page, context or browser has been closed|Browser has been closed|Target closed|browser has disconnected/i;
// The page's renderer process died (killed, or out of memory) while Playwright waited on it.
const CRASHED = /Page crashed|Target crashed/i;

/** Explains a failed main-frame navigation, using what the proxy remembers about the host. */
export function navigationError(err: unknown, failedUrl: string, proxy: GuardedProxy | undefined): Error {
  if (err instanceof ToolError) return err;
  const message = err instanceof Error ? err.message : String(err);
  let host = '';
  try {
    host = new URL(failedUrl).hostname.replace(/^\[|\]$/g, '');
  } catch {
    // not a URL: no host to look up
  }
  const failure = host ? proxy?.recentFailure(host) : undefined;
  if (failure?.verdict === 'blocked') return new BlockedTargetError(failure.message, failedUrl);
  // Chromium's own word on a download (or the abort it causes) wins over the proxy's: aborting a download also breaks the proxied
  // connection, and whether the proxy has noted that yet is a race.
  if (/Download is starting/i.test(message)) return new DownloadError(`${failedUrl} is a file download, not a page; downloads are turned off.`, failedUrl);
  if (/ERR_ABORTED/.test(message))
    return new DownloadError(`The browser stopped loading ${failedUrl} (it may be a file download rather than a page).`, failedUrl);
  if (failure) return new ToolError(`Could not load ${failedUrl}: ${failure.message}`, failure.kind);
  if (err instanceof playwright().errors.TimeoutError) return new ToolError(`The page did not respond in time: ${failedUrl}`, 'transient');
  if (/ERR_CERT_|ERR_SSL_/.test(message))
    return new ToolError(`The site's TLS certificate or handshake is not valid: ${failedUrl} (${netCode(message)})`, 'input');
  if (/ERR_TOO_MANY_REDIRECTS/.test(message)) return new ToolError(`Too many redirects: ${failedUrl}`, 'input');
  if (/ERR_INVALID_URL|ERR_UNSAFE_PORT|ERR_BLOCKED_BY_CLIENT|ERR_DISALLOWED_URL_SCHEME/.test(message))
    return new ToolError(`The browser refused ${failedUrl} (${netCode(message)}).`, 'input');
  if (CRASHED.test(message)) return new ToolError('The page crashed while loading (its renderer process died); the task will be retried.', 'transient');
  if (CLOSED.test(message)) return new ToolError('The browser closed while loading the page; the task will be retried.', 'transient');
  if (/net::ERR_/.test(message)) return new ToolError(`Could not load ${failedUrl} (${netCode(message)}).`, 'transient');
  return err instanceof Error ? err : new Error(message);
}

/** Any other failure while working with the page. */
export function pageError(err: unknown): Error {
  if (err instanceof ToolError) return err;
  // A page that filled its heap will fill it again: retrying would only spend another attempt's memory.
  if (err instanceof PageCrashedError) return new ToolError(crashMessage(err.how), err.how === 'memory' ? 'permanent' : 'transient');
  if (err instanceof playwright().errors.TimeoutError) return new ToolError('The page did not finish rendering within the time limit.', 'transient');
  const message = err instanceof Error ? err.message : String(err);
  // The pool's own word that the browser went away (killed or crashed) while the task waited for a page.
  if (CRASHED.test(message)) return new ToolError('The page crashed while rendering (its renderer process died); the task will be retried.', 'transient');
  if (err instanceof BrowserClosedError || CLOSED.test(message))
    return new ToolError('The browser closed while rendering the page; the task will be retried.', 'transient');
  return err instanceof Error ? err : new Error(message);
}

function netCode(message: string): string {
  return /net::(ERR_[A-Z_]+)/.exec(message)?.[1] ?? 'error';
}
