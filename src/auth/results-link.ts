// Read-only links to a batch's results: ?expires=<unix seconds>&sig=<signature of the batch id and the
// expiry>. The link opens the results pages and nothing else; a poll token in a URL (where logs, proxies
// and browser histories keep it) would also cancel the batch.
import { expiringSignature } from './expiring-signature.js';

/** How long a results link works: as long as the poll token it replaces. */
export const RESULTS_LINK_TTL_S = 24 * 60 * 60;

export const resultsLinkSignature = expiringSignature('agent-utility/batch-results/v1');

/** The query parameters that let anyone holding them read `batchId`'s results until they expire. */
export function resultsLinkQuery(secret: string, batchId: string, now = Date.now()): { expires: string; sig: string } {
  const expires = Math.floor(now / 1000) + RESULTS_LINK_TTL_S;
  return { expires: String(expires), sig: resultsLinkSignature.sign(secret, batchId, expires) };
}
