// Webhook POSTs go to addresses pros (or whoever imported them) chose, so they take the same guarded path
// as any tool traffic: http/https only, no private or loopback targets (unless NETWORK_ALLOWLIST opens
// them), the resolved address pinned for the connection, and no redirects followed.
import { request } from 'undici';
import { ToolError } from '../errors.js';
import type { HttpClient } from '../net/http-client.js';
import { PermanentDeliveryError, type WebhookPoster } from './dispatcher.js';

export function webhookPosterFor(client: HttpClient): WebhookPoster {
  return async (url, init) => {
    try {
      client.guard.checkUrl(url);
      const res = await request(url, { method: 'POST', headers: init.headers, body: init.body, signal: init.signal, dispatcher: client.agent });
      await res.body.dump();
      return { status: res.statusCode };
    } catch (err) {
      // The guard refusing a target, or a malformed URL, will not change on retry.
      const cause = (err as { cause?: unknown } | null)?.cause;
      for (const e of [err, cause]) {
        if (e instanceof ToolError && e.kind === 'input') throw new PermanentDeliveryError(e.message);
      }
      throw err;
    }
  };
}
