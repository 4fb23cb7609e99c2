// stdio's early initialize answer (written before the SDK loads) must be the answer the SDK server itself
// gives, for every protocol version a client may ask for, and the SDK's own answer must not follow it.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { earlyInitializeAnswer, SUPPORTED_PROTOCOL_VERSIONS } from '../../src/mcp/early-initialize.js';
import { GatedTransport } from '../../src/mcp/gated-transport.js';
import { mcpServerShell } from '../../src/mcp/server.js';
import { openStdio } from '../../src/cli/mcp-opening.js';
import { silentLogger } from '../../src/logger.js';

const initialize = (id: string | number, protocolVersion: string) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: { sampling: {} }, clientInfo: { name: 'test', version: '1' } },
});

/** What the SDK server answers to `request`, through the transport stdio uses. */
async function sdkAnswers(request: JSONRPCMessage, answered?: string | number): Promise<JSONRPCMessage[]> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const got: JSONRPCMessage[] = [];
  client.onmessage = (m) => void got.push(m);
  await client.start();
  await mcpServerShell(silentLogger).server.connect(new GatedTransport(server, answered));
  await client.send(request);
  await client.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
  await new Promise((r) => setTimeout(r, 20));
  return got;
}

describe('earlyInitializeAnswer', () => {
  it('knows the protocol versions the SDK supports, latest first', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
  });

  it.each([...SDK_VERSIONS, '2099-01-01', '2024-01-01'])('answers protocol version %s exactly as the SDK server does', async (version) => {
    for (const id of [1, 'init-1']) {
      const request = initialize(id, version);
      const early = earlyInitializeAnswer(request);
      expect(early?.id).toBe(id);
      const [sdk] = await sdkAnswers(request);
      expect(JSON.parse(early!.line)).toEqual(sdk);
    }
  });

  it('leaves to the SDK what is not a well-formed initialize', () => {
    const good = initialize(1, '2025-06-18');
    expect(earlyInitializeAnswer({ ...good, method: 'tools/list' })).toBeUndefined();
    expect(earlyInitializeAnswer({ ...good, jsonrpc: '1.0' })).toBeUndefined();
    expect(earlyInitializeAnswer({ ...good, id: null })).toBeUndefined();
    expect(earlyInitializeAnswer({ ...good, id: 1.5 })).toBeUndefined();
    expect(earlyInitializeAnswer({ ...good, params: { ...good.params, protocolVersion: 20250618 } })).toBeUndefined();
    expect(earlyInitializeAnswer({ ...good, params: { ...good.params, capabilities: [] } })).toBeUndefined();
    expect(earlyInitializeAnswer({ ...good, params: { ...good.params, clientInfo: { name: 'x' } } })).toBeUndefined();
    expect(earlyInitializeAnswer(undefined)).toBeUndefined();
  });

  it('is sent once: the SDK server still handles the request, and its own answer to that id is dropped', async () => {
    const request = initialize(7, '2025-06-18');
    const got = await sdkAnswers(request, 7);
    expect(got).toEqual([{ jsonrpc: '2.0', id: 'after', result: {} }]);
  });
});

describe('openStdio', () => {
  it('writes the answer to a 2025-era initialize at once and replays the request for the SDK', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const line = JSON.stringify(initialize(3, '2025-11-25'));
    stdin.write(`${line}\n`);
    const opening = await openStdio(stdin, stdout);
    expect(opening?.answered).toBe(3);
    const written = JSON.parse(String(stdout.read())) as { id: number; result: { protocolVersion: string } };
    expect(written.id).toBe(3);
    expect(written.result.protocolVersion).toBe('2025-11-25');
    stdin.end();
    let replayed = '';
    for await (const chunk of opening!.input) replayed += String(chunk);
    expect(replayed).toBe(`${line}\n`);
  });

  it('answers nothing to a 2026-07-28 opening', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } })}\n`);
    const opening = await openStdio(stdin, stdout);
    expect(opening?.era).toBe('modern');
    expect(opening?.answered).toBeUndefined();
    expect(stdout.read()).toBeNull();
  });
});
