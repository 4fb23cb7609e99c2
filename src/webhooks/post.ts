// One webhook POST through the network guard: http/https only, no private or loopback targets (unless
// NETWORK_ALLOWLIST opens them, as the tests do for their loopback receiver), the resolved address pinned
// for the connection, and redirects never followed (undici's request does not follow them: a 3xx is an
// answer, and not a 2xx, so the delivery is retried and then fails).
import { request } from 'undici';
import { ToolError } from '../errors.js';
import type { HttpClient } from '../net/http-client.js';

/** Sends one POST and reports the HTTP status; throws on a network failure or a blocked target. */
export type WebhookPoster = (url: string, init: { headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<{ status: number }>;

/** A failure retrying cannot fix: the guard refused the target, or the URL is malformed. */
export class PermanentDeliveryError extends Error {}

export function guardedPoster(client: HttpClient): WebhookPoster {
  return async (url, init) => {
    try {
      client.guard.checkUrl(url);
      const res = await request(url, { method: 'POST', headers: init.headers, body: init.body, signal: init.signal, dispatcher: client.agent });
      await res.body.dump();
      return { status: res.statusCode };
    } catch (err) {
      const cause = (err as { cause?: unknown } | null)?.cause;
      for (const e of [err, cause]) {
        if (e instanceof ToolError && e.kind === 'input') throw new PermanentDeliveryError(e.message);
      }
      throw err;
    }
  };
}

/** Exponential backoff from `baseMs`, doubling per attempt up to `maxMs`, with ±20% jitter so failing receivers are not retried in lockstep. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random = Math.random): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (0.8 + 0.4 * random()));
}
