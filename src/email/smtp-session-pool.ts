// Shared SMTP sessions per mail server: verifications that reach the same server address at the same
// time ask about their recipients in one session (RCPT TO once per recipient after one MAIL FROM) instead
// of a session each, with at most `sessionsPerHost` sessions open to one address and at most
// `rcptsPerSession` recipients asked in one (servers drop clients after a number of refused recipients).
// The catch-all test (a random address) runs once per domain per session. Each verification keeps its
// own deadline and cancellation: one that gives up leaves the queue; the session goes on for the rest.
// A batch whose tasks are claimed domain by domain (see batchKey) keeps many recipients of one server in
// flight, so its sessions fill up; unrelated single tasks rarely meet and keep a session each.
import { defineService } from '../registry/services.js';
import { SmtpSessionError } from './smtp-client.js';
import { askRecipient, openMailTransaction, type SessionOutcome, type TransactionSettings } from './smtp-transaction.js';

export interface PoolLimits {
  sessionsPerHost: number;
  rcptsPerSession: number;
  /** Time for each step of a session (connect to MAIL FROM; each RCPT TO). */
  stepTimeoutMs: number;
  /** How long a session with nobody left to ask stays open for the next recipient. */
  lingerMs: number;
}

export interface RcptRequest {
  /** MX host name (TLS server name) and the guard-approved address to connect to. */
  host: string;
  address: string;
  recipient: string;
  domain: string;
  needsSmtpUtf8: boolean;
  allowTls: boolean;
  testCatchAll: boolean;
  /** The latest moment this caller still wants an answer (queueing included). */
  deadline: number;
  signal?: AbortSignal | undefined;
}

interface Waiter {
  req: RcptRequest;
  /** Put back once already because the session broke under it after answering others. */
  requeued?: boolean;
  settle(outcome: SessionOutcome): void;
}

interface Lane {
  queue: Waiter[];
  active: number;
  /** Sessions still connecting: each will take one waiter, so those need no new session. */
  opening: number;
  /** Open sessions with nobody to ask about, lingering for the next arrival. */
  idle: ((w: Waiter | undefined) => void)[];
}

export interface PoolStats {
  /** Sessions opened (TCP connections). */
  sessions: number;
  /** Recipients asked about. */
  recipients: number;
}

// Long enough for a worker to claim and start a batch's next items, far below any server's idle timeout.
const SESSION_LINGER_MS = 100;

const NO_TLS = { offered: false, used: false, certificate_valid: null, error: null };

export class SmtpSessionPool {
  private readonly lanes = new Map<string, Lane>();
  private readonly counters: PoolStats = { sessions: 0, recipients: 0 };

  constructor(
    private readonly settings: TransactionSettings,
    private readonly limits: PoolLimits,
  ) {}

  stats(): PoolStats {
    return { ...this.counters };
  }

  /** Asks the server at `req.address` about one recipient, in a shared session. */
  ask(req: RcptRequest): Promise<SessionOutcome> {
    // Sessions differ by what was negotiated: TLS or not, and MAIL FROM with SMTPUTF8 or not.
    const key = `${req.address} ${req.host} ${req.allowTls ? 'tls' : 'plain'} ${req.needsSmtpUtf8 ? 'utf8' : 'ascii'}`;
    let lane = this.lanes.get(key);
    if (!lane) this.lanes.set(key, (lane = { queue: [], active: 0, opening: 0, idle: [] }));
    const theLane = lane;
    return new Promise<SessionOutcome>((resolve) => {
      let settled = false;
      const leave = (outcome: SessionOutcome) => {
        const i = theLane.queue.indexOf(waiter);
        if (i >= 0) theLane.queue.splice(i, 1);
        waiter.settle(outcome);
      };
      const onAbort = () =>
        leave({ kind: 'failed', error: new SmtpSessionError('aborted', 'the verification was cancelled'), stage: 'waiting for a session', tls: NO_TLS });
      const timer = setTimeout(
        () =>
          leave({
            kind: 'failed',
            error: new SmtpSessionError('timeout', 'the mail server did not answer in time'),
            stage: 'waiting for a session',
            tls: NO_TLS,
          }),
        Math.max(0, req.deadline - Date.now()),
      );
      const waiter: Waiter = {
        req,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          req.signal?.removeEventListener('abort', onAbort);
          resolve(outcome);
        },
      };
      if (req.signal?.aborted) return onAbort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      // A session lingering with nothing to do takes it at once; otherwise it waits for one (or a new one).
      const idle = theLane.idle.shift();
      if (idle) idle(waiter);
      else {
        theLane.queue.push(waiter);
        this.maybeOpen(key, theLane);
      }
    });
  }

  /**
   * The next recipient for a session that has asked about everyone queued, if one arrives within
   * lingerMs: a batch's next items reach the pool a few milliseconds apart, and a session kept open
   * for them saves a connection each time.
   */
  private nextArrival(lane: Lane): Promise<Waiter | undefined> {
    if (this.limits.lingerMs <= 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const take = (w: Waiter | undefined) => {
        clearTimeout(timer);
        const i = lane.idle.indexOf(take);
        if (i >= 0) lane.idle.splice(i, 1);
        resolve(w);
      };
      const timer = setTimeout(() => take(undefined), this.limits.lingerMs);
      lane.idle.push(take);
    });
  }

  /** Opens another session when some waiters have none coming for them and the cap allows it. */
  private maybeOpen(key: string, lane: Lane): void {
    if (lane.active < this.limits.sessionsPerHost && lane.queue.length > lane.opening) void this.runSession(key, lane);
  }

  private async runSession(key: string, lane: Lane): Promise<void> {
    lane.active++;
    lane.opening++;
    let opening = true;
    try {
      const first = lane.queue[0];
      if (!first) return;
      this.counters.sessions++;
      const r = first.req;
      const opened = await openMailTransaction(this.settings, {
        host: r.host,
        address: r.address,
        needsSmtpUtf8: r.needsSmtpUtf8,
        allowTls: r.allowTls,
        deadline: Date.now() + this.limits.stepTimeoutMs,
      });
      lane.opening--;
      opening = false;
      if (opened.kind !== 'open') {
        // The server answered the session itself (refused, unreachable, no SMTPUTF8): the same for everyone
        // waiting on it now, so they all have their answer without a connection each.
        for (const w of lane.queue.splice(0)) w.settle(opened);
        return;
      }
      const { session, tls } = opened;
      const catchAll = new Map<string, boolean | null>();
      try {
        for (let asked = 0; asked < this.limits.rcptsPerSession; asked++) {
          const w = lane.queue.shift() ?? (await this.nextArrival(lane));
          if (!w) break;
          this.counters.recipients++;
          session.extendDeadline(Date.now() + this.limits.stepTimeoutMs);
          try {
            // Undefined until this session has tested the domain; then its answer serves every later recipient there.
            const known = catchAll.get(w.req.domain);
            const testDomain = w.req.testCatchAll && known === undefined ? w.req.domain : null;
            const answer = await askRecipient(session, w.req.recipient, testDomain);
            if (testDomain !== null && answer.verdict === 'accepted') catchAll.set(testDomain, answer.catchAll);
            const catchAllAnswer = w.req.testCatchAll && answer.verdict === 'accepted' ? (known !== undefined ? known : answer.catchAll) : null;
            w.settle({ kind: 'rcpt', verdict: answer.verdict, reply: answer.reply, catchAll: catchAllAnswer, tls });
            // 421: the server is closing the channel; the rest go to a new session.
            if (answer.reply.code === 421) break;
          } catch (err) {
            if (!(err instanceof SmtpSessionError)) throw err;
            // A server that answered others in this session and then hung up has had enough of this
            // session (many servers drop a client after a number of refused recipients), which says
            // nothing about this recipient: it is asked once more in a new session.
            if (asked > 0 && !w.requeued && (err.kind === 'dropped' || err.kind === 'protocol')) {
              w.requeued = true;
              lane.queue.unshift(w);
            } else w.settle({ kind: 'failed', error: err, stage: 'RCPT TO', tls });
            return;
          }
        }
        session.extendDeadline(Date.now() + this.limits.stepTimeoutMs);
        await session.command('RSET').catch(() => undefined);
        await session.quit().catch(() => undefined);
      } finally {
        session.close();
      }
    } catch (err) {
      // Not an SMTP answer (a bug): nobody waiting should hang on it.
      const error = new SmtpSessionError('protocol', err instanceof Error ? err.message : String(err));
      for (const w of lane.queue.splice(0)) w.settle({ kind: 'failed', error, stage: 'session', tls: NO_TLS });
    } finally {
      if (opening) lane.opening--;
      lane.active--;
      if (lane.queue.length > 0) this.maybeOpen(key, lane);
      else if (lane.active === 0) this.lanes.delete(key);
    }
  }
}

/** One pool per process, limited by SMTP_SESSIONS_PER_HOST and SMTP_RCPTS_PER_SESSION. */
export const smtpSessionPoolService = defineService({
  name: 'smtp-session-pool',
  create: ({ config }) =>
    new SmtpSessionPool(
      { port: config.net.smtpProbePort, heloName: config.net.smtpHeloName, mailFrom: config.net.smtpMailFrom },
      {
        sessionsPerHost: config.net.smtpSessionsPerHost,
        rcptsPerSession: config.net.smtpRcptsPerSession,
        stepTimeoutMs: config.net.smtpProbeTimeoutMs,
        lingerMs: SESSION_LINGER_MS,
      },
    ),
});
