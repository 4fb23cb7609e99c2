// GatedTransport: the handshake passes at once, everything else waits for open() and keeps its order.
import { describe, expect, it } from 'vitest';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { GatedTransport } from '../../src/mcp/gated-transport.js';

function innerTransport() {
  const sent: JSONRPCMessage[] = [];
  const inner: Transport = { start: async () => undefined, close: async () => undefined, send: async (m) => void sent.push(m) };
  return { inner, sent, receive: (m: JSONRPCMessage) => inner.onmessage?.(m) };
}

const req = (id: number, method: string): JSONRPCMessage => ({ jsonrpc: '2.0', id, method });

describe('GatedTransport', () => {
  it('lets initialize, initialized and ping through and holds the rest until open()', () => {
    const { inner, receive } = innerTransport();
    const gated = new GatedTransport(inner);
    const seen: string[] = [];
    gated.onmessage = (m) => void seen.push((m as { method: string }).method);
    receive(req(1, 'initialize'));
    receive({ jsonrpc: '2.0', method: 'notifications/initialized' });
    receive(req(2, 'ping'));
    receive(req(3, 'tools/list'));
    expect(seen).toEqual(['initialize', 'notifications/initialized', 'ping']);
    gated.open();
    expect(seen).toEqual(['initialize', 'notifications/initialized', 'ping', 'tools/list']);
  });

  it('holds a ping that follows a held request, so the client sees answers in the order it asked', () => {
    const { inner, receive } = innerTransport();
    const gated = new GatedTransport(inner);
    const seen: string[] = [];
    let holds = 0;
    gated.onhold = () => holds++;
    gated.onmessage = (m) => void seen.push((m as { method: string }).method);
    receive(req(1, 'tools/call'));
    expect(holds).toBe(1);
    receive(req(2, 'ping'));
    receive({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    expect(seen).toEqual([]);
    expect(holds).toBe(1);
    gated.open();
    expect(seen).toEqual(['tools/call', 'ping', 'notifications/cancelled']);
    receive(req(3, 'tools/list'));
    expect(seen.at(-1)).toBe('tools/list');
  });

  it('sends through the inner transport', async () => {
    const { inner, sent } = innerTransport();
    const gated = new GatedTransport(inner);
    await gated.send({ jsonrpc: '2.0', id: 1, result: {} });
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });
});
