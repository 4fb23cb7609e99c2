// Property-based fuzzing (fast-check) of every parser a caller's body reaches: the batch reader (CSV,
// NDJSON, JSON), tool input validation (task creation on every door), MCP tools/call arguments and A2A
// data parts. Keys are drawn mostly from __proto__, prototype, constructor and names of Object.prototype's
// own members, nested and dotted. Each run asserts that Object.prototype gained nothing (`({}).anyKey`
// stays undefined) and that a refusal is a client error (4xx / invalid params), never a fault.
// 10,600 bodies in all; test/integration/fuzz-http.test.ts sends a few hundred more through the server.
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { toolCallOf, MessageNotUnderstood } from '../../src/a2a/message-input.js';
import { AppError } from '../../src/errors.js';
import { readBatchInputs, type BatchFormat } from '../../src/http/batch-input.js';
import { parseToolCall, reservedArgumentError } from '../../src/mcp/tool-call-request.js';
import { ToolRegistry } from '../../src/registry/registry.js';
import { tools } from '../../tools/index.js';

const PROTOTYPE_KEYS = Reflect.ownKeys(Object.prototype);
const TRICKY = [
  '__proto__',
  'prototype',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'free',
  'value',
  'url',
  'select',
  'headers',
];
const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...TRICKY) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
const path = fc.array(key, { minLength: 1, maxLength: 4 }).map((p) => p.join('.'));
const value = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, fc.string({ maxLength: 12 }), fc.integer(), fc.boolean(), fc.constant(null), tie('obj'), tie('arr')),
  obj: fc.dictionary(key, tie('any'), { maxKeys: 4 }),
  arr: fc.array(tie('any'), { maxLength: 3 }),
})).any;
const object = fc.dictionary(key, value, { maxKeys: 5 });
const registry = new ToolRegistry(tools);

function prototypeUntouched(): void {
  expect(Reflect.ownKeys(Object.prototype)).toEqual(PROTOTYPE_KEYS);
  const probe = {} as Record<string, unknown>;
  for (const k of TRICKY) if (!PROTOTYPE_KEYS.includes(k)) expect(probe[k], `({}).${k}`).toBeUndefined();
  expect(Object.getPrototypeOf(probe)).toBe(Object.prototype);
}

/** A refusal is acceptable when it is the caller's fault, worded for the caller. */
function clientError(err: unknown): boolean {
  if (err instanceof AppError) return err.status >= 400 && err.status < 500;
  if (err instanceof McpError) return err.code === -32602;
  return err instanceof MessageNotUnderstood;
}

async function survives(work: () => unknown): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!clientError(err)) throw err;
  }
  prototypeUntouched();
}

afterEach(() => {
  // A failing property must not leave the rest of the file polluted.
  for (const k of Reflect.ownKeys(Object.prototype)) if (!PROTOTYPE_KEYS.includes(k)) delete (Object.prototype as Record<PropertyKey, unknown>)[k];
});

function csvCell(text: string, quote: boolean): string {
  return quote || /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const csvBody = fc
  .record({
    header: fc.array(fc.tuple(path, fc.boolean(), fc.constantFrom('', ' ')), { minLength: 1, maxLength: 4 }),
    rows: fc.array(fc.array(fc.string({ maxLength: 6 }), { maxLength: 5 }), { maxLength: 4 }),
    eol: fc.constantFrom('\n', '\r\n'),
    junk: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
  })
  .map(
    ({ header, rows, eol, junk }) =>
      [header.map(([p, q, pad]) => csvCell(`${pad}${p}${pad}`, q)).join(','), ...rows.map((r) => r.map((c, i) => csvCell(c, i % 2 === 0)).join(','))].join(
        eol,
      ) + (junk ?? ''),
  );

const LIMITS = { maxItems: 50, maxBytes: 1024 * 1024 };

async function readAll(format: BatchFormat, body: string, chunkAt: number): Promise<unknown[]> {
  const cut = Math.min(chunkAt, body.length);
  return readBatchInputs([body.slice(0, cut), body.slice(cut)], format, LIMITS);
}

describe('fuzzed bodies never touch Object.prototype and are never a fault', () => {
  it('CSV batch bodies (1,000)', async () => {
    await fc.assert(
      fc.asyncProperty(csvBody, fc.nat(200), async (body, at) => {
        await survives(async () => {
          const inputs = await readAll('csv', body, at);
          for (const input of inputs) registry.parseInput('dns.lookup', input);
        });
      }),
      { numRuns: 1000 },
    );
  });

  it('NDJSON batch bodies (800)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(object, { maxLength: 4 }), fc.nat(200), async (lines, at) => {
        await survives(async () => {
          const inputs = await readAll('ndjson', lines.map((l) => JSON.stringify(l)).join('\n'), at);
          for (const input of inputs) registry.parseInput('browser.scrape', input);
        });
      }),
      { numRuns: 800 },
    );
  });

  it('JSON batch bodies (800)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(object, { maxLength: 4 }), object, fc.nat(200), async (inputs, extra, at) => {
        await survives(async () => {
          const read = await readAll('json', JSON.stringify({ ...extra, inputs }), at);
          for (const input of read) registry.parseInput('url.status', input);
        });
      }),
      { numRuns: 800 },
    );
  });

  it('task creation inputs for every tool (5,000)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...registry.names), object, async (tool, input) => {
        await survives(() => registry.parseInput(tool, JSON.parse(JSON.stringify(input))));
      }),
      { numRuns: 5000 },
    );
  });

  it('MCP tools/call arguments (1,500)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...registry.names), object, async (tool, args) => {
        const message = JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: args } })) as {
          params: { arguments: unknown };
        };
        await survives(() => {
          if (reservedArgumentError(message)) return;
          const call = parseToolCall(message);
          registry.parseInput(tool, call.params.arguments ?? {});
        });
      }),
      { numRuns: 1500 },
    );
  });

  it('A2A data parts (1,500)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...registry.names), object, object, async (tool, input, extra) => {
        const data = JSON.parse(JSON.stringify({ ...extra, tool, input })) as Record<string, unknown>;
        const message = { parts: [{ content: { $case: 'data', value: data } }] } as unknown as Parameters<typeof toolCallOf>[0];
        await survives(() => {
          const call = toolCallOf(message, registry);
          registry.parseInput(call.tool, call.input);
        });
      }),
      { numRuns: 1500 },
    );
  });
});
