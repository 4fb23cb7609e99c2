// The test clients' wrapper must let a notification handled one microtask late (as the SDK clients do)
// finish before the next message of the same read is handed over.
import { describe, expect, it } from 'vitest';
import { inArrivalOrder } from '../support/mcp-arrival-order.js';

class OneReadTransport {
  onmessage?: (message: string) => void;
  /** Hands over every message of one read synchronously, as the stdio transports do. */
  read(messages: string[]): void {
    for (const m of messages) this.onmessage?.(m);
  }
}

describe('inArrivalOrder', () => {
  const consume = (t: OneReadTransport, seen: string[]) => {
    // Like the SDK: notifications a microtask late, responses at once.
    t.onmessage = (m) => {
      if (m.startsWith('notification')) void Promise.resolve().then(() => seen.push(m));
      else seen.push(m);
    };
  };

  it('without it, a notification of the same read is handled after the response', async () => {
    const t = new OneReadTransport();
    const seen: string[] = [];
    consume(t, seen);
    t.read(['notification 1', 'response 1']);
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['response 1', 'notification 1']);
  });

  it('with it, every message is handled in arrival order', async () => {
    const t = inArrivalOrder(new OneReadTransport());
    const seen: string[] = [];
    consume(t, seen);
    t.read(['notification 1', 'response 1', 'notification 2', 'notification 3', 'response 2']);
    while (seen.length < 5) await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['notification 1', 'response 1', 'notification 2', 'notification 3', 'response 2']);
  });
});
