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

/** A crawl's pages (GET /v1/crawls/{task_id}/results): signed apart, so no batch link opens a crawl's. */
export const crawlResultsLinkSignature = expiringSignature('agent-utility/crawl-results/v1');

/** The query parameters that let anyone holding them read crawl `taskId`'s pages until they expire. */
export function crawlResultsLinkQuery(secret: string, taskId: string, now = Date.now()): { expires: string; sig: string } {
  const expires = Math.floor(now / 1000) + RESULTS_LINK_TTL_S;
  return { expires: String(expires), sig: crawlResultsLinkSignature.sign(secret, taskId, expires) };
}
