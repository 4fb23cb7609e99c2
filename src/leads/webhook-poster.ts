// Webhook POSTs go to addresses pros (or whoever imported them) chose, so they take the same guarded path
// as the task webhooks (src/webhooks/post.ts): http/https only, no private or loopback targets (unless
// NETWORK_ALLOWLIST opens them), the resolved address pinned for the connection, and no redirects followed.
import type { HttpClient } from '../net/http-client.js';
import { guardedPoster, type WebhookPoster } from '../webhooks/post.js';

export function webhookPosterFor(client: HttpClient): WebhookPoster {
  return guardedPoster(client);
}
