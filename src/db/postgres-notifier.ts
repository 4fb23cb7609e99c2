// LISTEN/NOTIFY wake-ups between processes sharing one PostgreSQL schema: "a task may be claimable"
// for workers and "a task settled" for waiters. They only make things faster. Workers and waiters also
// poll, so a notification lost while this connection is down costs latency, never a task. One
// dedicated connection per process, opened on the first subscription and reopened after a failure.
//
// Notifications are sent AFTER the change commits, batched a few milliseconds, in a statement of their
// own. Never inside the changing transaction: PostgreSQL serialises the commits of all transactions that
// NOTIFY (one database-wide lock held through the WAL flush), which on this machine caps a cluster at
// ~450 task writes/s, against ~1,700 without. A NOTIFY-only statement writes no WAL, so it costs little.
import pg from 'pg';
import { createHash } from 'node:crypto';

type Listener = (item: string) => void;

const MAX_PAYLOAD = 7_900; // NOTIFY payloads must stay under 8,000 bytes
const BATCH_MS = 2;

const MAX_CHANNEL = 63; // PostgreSQL identifiers (and so channel names) are at most 63 bytes

/** A channel name per schema, so clusters sharing a database in different schemas do not wake each other. */
export function channelName(schema: string, event: 'task_available' | 'task_settled'): string {
  const plain = `agent_utility_${event}_${schema}`;
  return plain.length <= MAX_CHANNEL ? plain : `agent_utility_${event}_${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
}

export class PostgresNotifier {
  private readonly listeners = new Map<string, Set<Listener>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 500;
  private closed = false;
  private readonly outbox = new Map<string, Set<string>>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly config: pg.ClientConfig,
    /** Sends NOTIFY statements (a pool's query). */
    private readonly send: (sql: string, params: unknown[]) => Promise<unknown>,
    private readonly onError: (err: Error) => void = () => undefined,
  ) {}

  /** Queues `item` (a tool name, a task id: no commas) for `channel`; sent within a few milliseconds. */
  publish(channel: string, item: string): void {
    if (this.closed) return;
    let items = this.outbox.get(channel);
    if (!items) this.outbox.set(channel, (items = new Set()));
    items.add(item);
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = undefined;
      this.flushing = this.flushing.then(() => this.flush());
    }, BATCH_MS);
  }

  /** Sends each channel's items, joined by commas into as few payloads as fit, in one statement. */
  private async flush(): Promise<void> {
    const outbox = [...this.outbox];
    this.outbox.clear();
    for (const [channel, items] of outbox) {
      const payloads: string[] = [];
      for (const item of items) {
        const last = payloads.length - 1;
        if (last >= 0 && payloads[last]!.length + 1 + item.length <= MAX_PAYLOAD) payloads[last] += `,${item}`;
        else payloads.push(item);
      }
      await this.send('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [channel, payloads]).catch((err: Error) => this.onError(err));
    }
  }

  subscribe(channel: string, listener: Listener): () => void {
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      const client = this.client;
      if (client) void client.query(`LISTEN ${channel}`).catch((err: Error) => this.lost(client, err));
    }
    set.add(listener);
    this.ensureConnected();
    // Unsubscribing leaves the LISTEN in place: channels are few and fixed, and re-subscribing is then free.
    return () => set.delete(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    // Send what is queued (others may be waiting for it), then stop listening.
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    await (this.flushing = this.flushing.then(() => this.flush()));
    clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private ensureConnected(): void {
    if (this.closed || this.client || this.connecting || this.retryTimer) return;
    this.connecting = this.connect().finally(() => {
      this.connecting = undefined;
    });
  }

  private async connect(): Promise<void> {
    const client = new pg.Client(this.config);
    client.on('notification', (msg) => this.dispatch(msg.channel, msg.payload ?? ''));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, undefined));
    try {
      await client.connect();
      // Channels subscribed while this loop awaits are picked up by the same iteration of the Map.
      for (const channel of this.listeners.keys()) await client.query(`LISTEN ${channel}`);
    } catch (err) {
      this.lost(client, err as Error);
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelayMs = 500;
    // Anything may have happened while we were not listening: let every subscriber look once.
    for (const channel of this.listeners.keys()) this.dispatch(channel, '');
  }

  private lost(client: pg.Client, err: Error | undefined): void {
    if (err) this.onError(err);
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.client === client) this.client = undefined;
    if (this.closed || this.retryTimer) return;
    const delay = this.retryDelayMs;
    this.retryDelayMs = Math.min(30_000, this.retryDelayMs * 2);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.ensureConnected();
    }, delay);
    this.retryTimer.unref();
  }

  /** Each listener gets every item of the payload; an empty payload (after a reconnect) as one ''. */
  private dispatch(channel: string, payload: string): void {
    const items = payload.split(',');
    for (const listener of this.listeners.get(channel) ?? []) {
      for (const item of items) {
        try {
          listener(item);
        } catch (err) {
          this.onError(err as Error);
        }
      }
    }
  }
}
