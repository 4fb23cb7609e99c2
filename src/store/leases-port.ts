// Leader leases: a job that must run in one process at a time (x402 settlement from one settler account)
// is done by whoever holds its lease. Times are the caller's clock in ms, as for task leases.
export interface LeaseStore {
  /**
   * Takes lease `name` for `holder` until `now + ttlMs` when it is free, expired (at or before `now`) or
   * already `holder`'s (a renewal); false while another holder's lease is unexpired. Atomic across processes.
   */
  holdLease(name: string, holder: string, ttlMs: number, now: number): Promise<boolean>;
  /** Ends `holder`'s lease on `name` (no-op when another holds it), so another process takes it at once. */
  releaseLease(name: string, holder: string): Promise<void>;
}
