// stdio's era choice from the first message, and the replay of that message into the chosen transport.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION_META_KEY as SDK_META_KEY } from '@modelcontextprotocol/server';
import { eraOf, PROTOCOL_VERSION_META_KEY, readOpening } from '../../src/mcp/stdio-opening.js';

const envelope = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };

describe('eraOf', () => {
  it('looks for the key the v2 SDK puts the protocol version under', () => {
    expect(PROTOCOL_VERSION_META_KEY).toBe(SDK_META_KEY);
  });

  it('is modern only for a message carrying the protocol version in _meta', () => {
    expect(eraOf({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } })).toBe('modern');
    expect(eraOf({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } })).toBe('modern');
    expect(eraOf({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } })).toBe('legacy');
    expect(eraOf({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 1 } } })).toBe('legacy');
    expect(eraOf(undefined)).toBe('legacy');
    expect(eraOf('not json-rpc')).toBe('legacy');
  });
});

describe('readOpening', () => {
  it('reads the first line across chunks and replays everything into the returned stream', async () => {
    const stdin = new PassThrough();
    const opening = readOpening(stdin);
    const first = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } });
    stdin.write(first.slice(0, 10));
    stdin.write(`${first.slice(10)}\n{"jsonrpc":"2.0","id":2`);
    const got = await opening;
    expect(got?.era).toBe('modern');
    stdin.end(',"method":"tools/list"}\n');
    let replayed = '';
    for await (const chunk of got!.input) replayed += String(chunk);
    expect(replayed).toBe(`${first}\n{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n`);
  });

  it('is undefined when the stream ends before a whole line', async () => {
    const stdin = new PassThrough();
    const opening = readOpening(stdin);
    stdin.end('{"jsonrpc"');
    expect(await opening).toBeUndefined();
  });
});
