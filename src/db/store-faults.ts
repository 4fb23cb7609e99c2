// Which database errors mean "the store cannot answer now" rather than "this statement is wrong": the
// server unreachable or restarting, out of connections, out of disk, locked past the busy timeout. Such
// an error becomes StoreUnavailable (503 STORE_UNAVAILABLE with Retry-After on every front door), and
// StoreFaults remembers the episode so it is logged once and shown by /healthz and /metrics. Statement
// errors (a constraint, a syntax error) pass through untouched: they are bugs or outcomes, not outages.
import { StoreUnavailable } from '../errors.js';
import type { StoreFaultReport } from '../store/faults-port.js';

type Reason = StoreUnavailable['reason'];

// PostgreSQL SQLSTATEs: class 08 is "connection exception"; 57P01-57P03 the server shutting down or
// starting; 53300 too many connections; 53100 disk full; 58030 an I/O error.
const POSTGRES_CODES: Record<string, Reason> = {
  '57P01': 'unreachable',
  '57P02': 'unreachable',
  '57P03': 'unreachable',
  '53300': 'too_many_connections',
  '53100': 'disk_full',
  '58030': 'io_error',
};
// Socket errors from connecting to or talking with the server.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// pg reports a lost connection, a connect timeout and a closed pool by message only.
const POSTGRES_MESSAGES: [RegExp, Reason][] = [
  [/Connection terminated|connection error and is not queryable|Client was closed and is not queryable/i, 'unreachable'],
  [/timeout exceeded when trying to connect|Connection terminated due to connection timeout/i, 'unreachable'],
];
// better-sqlite3 codes: SQLITE_FULL (disk or quota), SQLITE_IOERR_* (a write the disk refused),
// SQLITE_BUSY (another process held the write lock past busy_timeout).
function sqliteReason(code: string): Reason | undefined {
  if (code === 'SQLITE_FULL') return 'disk_full';
  if (code.startsWith('SQLITE_IOERR')) return code === 'SQLITE_IOERR_WRITE' || code === 'SQLITE_IOERR_FSYNC' ? 'disk_full' : 'io_error';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return 'busy';
  return undefined;
}

const MESSAGES: Record<Reason, string> = {
  unreachable: 'The database is unreachable right now; nothing was done. Retry shortly.',
  too_many_connections: 'The database has no free connections right now; nothing was done. Retry shortly.',
  disk_full: "The database's disk is full; nothing was done. Retry once space has been freed.",
  busy: 'The database is busy right now; nothing was done. Retry shortly.',
  io_error: 'The database could not read or write its files; nothing was done. Retry shortly.',
};
const RETRY_AFTER_S: Record<Reason, number> = { unreachable: 5, too_many_connections: 2, disk_full: 30, busy: 1, io_error: 10 };

function codeOf(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : undefined;
}

/** Why `err` means the store is out of service, or undefined for any other error. */
export function storeFaultReason(err: unknown): Reason | undefined {
  if (err instanceof StoreUnavailable) return err.reason;
  const code = codeOf(err);
  if (code) {
    if (code in POSTGRES_CODES) return POSTGRES_CODES[code];
    if (code.startsWith('08')) return 'unreachable';
    if (SOCKET_CODES.has(code)) return 'unreachable';
    if (code.startsWith('SQLITE_')) return sqliteReason(code);
  }
  const message = err instanceof Error ? err.message : '';
  return POSTGRES_MESSAGES.find(([re]) => re.test(message))?.[1];
}

/** `err` as StoreUnavailable when it is a store outage, else `err` itself. */
export function asStoreFault(err: unknown): unknown {
  if (err instanceof StoreUnavailable) return err;
  const reason = storeFaultReason(err);
  return reason ? new StoreUnavailable(MESSAGES[reason], reason, RETRY_AFTER_S[reason], { cause: err }) : err;
}

export interface StoreFaultState {
  reason: Reason;
  /** The first error of the episode, as the database put it (for operators, never for callers). */
  detail: string;
  since: number;
}

/**
 * A store's outage episodes: the first fault starts one (reported once), the next statement that
 * succeeds ends it (reported once, with how many errors it saw). Counts per reason never go down.
 */
export class StoreFaults implements StoreFaultReport {
  private state: StoreFaultState | undefined;
  private errorsInEpisode = 0;
  readonly counts = new Map<Reason, number>();
  lockRetries = 0;
  private readonly listeners = new Set<(change: { kind: 'down'; state: StoreFaultState } | { kind: 'up'; state: StoreFaultState; errors: number }) => void>();

  current(): StoreFaultState | undefined {
    return this.state;
  }

  onChange(listener: Parameters<typeof this.listeners.add>[0]): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records `err` if it is a store outage and answers it as StoreUnavailable; other errors pass through. */
  fault(err: unknown): unknown {
    const mapped = asStoreFault(err);
    if (!(mapped instanceof StoreUnavailable)) return err;
    this.counts.set(mapped.reason, (this.counts.get(mapped.reason) ?? 0) + 1);
    this.errorsInEpisode++;
    if (!this.state) {
      const cause = mapped.cause instanceof Error ? mapped.cause.message : String(mapped.cause ?? mapped.message);
      this.state = { reason: mapped.reason, detail: cause, since: Date.now() };
      for (const l of this.listeners) l({ kind: 'down', state: this.state });
    }
    return mapped;
  }

  /** A statement succeeded: an outage in progress is over. Cheap when there is none (the hot path). */
  ok(): void {
    if (!this.state) return;
    const state = this.state;
    const errors = this.errorsInEpisode;
    this.state = undefined;
    this.errorsInEpisode = 0;
    for (const l of this.listeners) l({ kind: 'up', state, errors });
  }

  /** Runs one store call, noting its outcome (no extra await on the hot path). */
  watch<T>(call: () => Promise<T>): Promise<T> {
    return call().then(
      (result) => {
        if (this.state) this.ok();
        return result;
      },
      (err: unknown) => {
        throw this.fault(err);
      },
    );
  }
}
