// Data minimisation on a timer: requester details (and the outbox's copies of finished notifications)
// older than the retention are erased, once at start and then hourly. Erasing is idempotent, so several
// processes doing it at once only repeat each other.
import type { Logger } from '../logger.js';
import type { LeadStore } from './store.js';

export const REQUESTER_RETENTION_MS = 30 * 86_400_000;

export function startRequesterErasure(store: LeadStore, log: Logger, retentionMs = REQUESTER_RETENTION_MS, now = Date.now): () => void {
  const erase = () =>
    store.eraseRequesterDetails(now() - retentionMs).then(
      (count) => count > 0 && log.info('erased requester details of old requests', { count }),
      (err: unknown) => log.warn('could not erase old requester details; trying again in an hour', { err }),
    );
  void erase();
  const timer = setInterval(() => void erase(), 3_600_000);
  timer.unref();
  return () => clearInterval(timer);
}
