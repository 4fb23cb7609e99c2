// What a store tells operators about its outages (src/db/store-faults.ts keeps them): the one in
// progress, if any, and how many errors of each kind it has seen.
export interface StoreOutage {
  /** unreachable, too_many_connections, disk_full, busy, io_error */
  reason: string;
  /** The database's own words for the first error of the outage (for operators, never for callers). */
  detail: string;
  since: number;
}

export interface StoreFaultReport {
  current(): StoreOutage | undefined;
  /** Errors per reason since the process started. */
  readonly counts: ReadonlyMap<string, number>;
  /**
   * Statements tried again because another connection (another process on the same SQLite file) held the
   * write lock at that moment: no error, a short wait. A rising rate means the processes sharing the file
   * contend for it (docs/operations.md).
   */
  readonly lockRetries: number;
  /** Told once when an outage starts and once when it ends. */
  onChange(listener: (change: { kind: 'down' | 'up'; state: StoreOutage; errors?: number }) => void): () => void;
}
