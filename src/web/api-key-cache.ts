// API-key rows remembered for at most a second per process. Looking the key up was 8% of a task
// creation's CPU; a second is short enough that a revoked key stops working on every node
// within it, and nothing that matters is decided from the cached row: creation charges the key in the
// same write that inserts the task, and that write refuses a revoked key or a short balance itself.
import { findApiKey } from '../billing/api-keys.js';
import type { ApiKeyRow, TaskStore } from '../store/port.js';

/** How long a looked-up key row is trusted. */
export const API_KEY_CACHE_TTL_MS = 1000;
/** More distinct keys than this within a second: forget the oldest rather than grow without bound. */
const MAX_ENTRIES = 10_000;

interface Entry {
  row: Promise<ApiKeyRow | null>;
  until: number;
}

export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly store: TaskStore,
    private readonly ttlMs = API_KEY_CACHE_TTL_MS,
  ) {}

  /** The key's row (revoked or not), or null when no key has this secret. Unknown keys are not remembered. */
  find(token: string, now = Date.now()): Promise<ApiKeyRow | null> {
    const hit = this.entries.get(token);
    if (hit && hit.until > now) return hit.row;
    const row = findApiKey(this.store, token);
    // Concurrent requests with the same key share one lookup.
    const entry = { row, until: now + this.ttlMs };
    if (this.entries.size >= MAX_ENTRIES) this.evict(now);
    this.entries.set(token, entry);
    row.then(
      (found) => {
        if (!found && this.entries.get(token) === entry) this.entries.delete(token);
      },
      () => {
        if (this.entries.get(token) === entry) this.entries.delete(token);
      },
    );
    return row;
  }

  private evict(now: number): void {
    for (const [token, e] of this.entries) if (e.until <= now) this.entries.delete(token);
    // All still fresh: drop the oldest (Map keeps insertion order).
    while (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
  }
}
