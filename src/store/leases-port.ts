// Leader leases: a job that must run in one process at a time (x402 settlement from one settler account,
// key-purchase reconciliation) is done by whoever holds its lease. Expiry is kept and compared on the
// store's clock (PostgreSQL's server for every node), never a node's own: nodes' clocks may disagree.
export interface LeaseStore {
  /**
   * Takes lease `name` for `holder` for the next `ttlMs` of the store's clock when it is free, expired or
   * already `holder`'s (a renewal); false while another holder's lease is unexpired. Atomic across processes.
   */
  holdLease(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Ends `holder`'s lease on `name` (no-op when another holds it), so another process takes it at once. */
  releaseLease(name: string, holder: string): Promise<void>;
}
