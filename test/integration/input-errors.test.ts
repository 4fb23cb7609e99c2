// Issue #12: one wording for invalid input on every front door. The same bad inputs go through REST
// (fetch), MCP (the official SDK client) and A2A (the official @a2a-js/sdk client), and each answers with
// the identical sentence naming the field. Numbers sent for digit-only string fields (zip 10001, as the
// MCP Inspector sends them) are accepted on all three; malformed tools/call params are -32602 with one
// sentence, and no message carries the SDK's "MCP error …" prefix twice.
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, type Client as A2AClient } from '@a2a-js/sdk/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CallToolResultSchema, CreateTaskResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import homeservicesSearch from '../../tools/homeservices.search.js';
import siteCrawl from '../../tools/site.crawl.js';
import sitePage from '../../tools/site.page.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { api } from '../support/service.js';
import { zipTool } from '../support/zip-tool.js';

let svc: McpTestService;
let key: string;
let mcp: Client;
let a2a: A2AClient;

beforeAll(async () => {
  svc = await startMcpService({}, { tools: [zipTool, homeservicesSearch, sitePage, siteCrawl] });
  ({ key } = await svc.createKey(1));
  mcp = await svc.connect({ key });
  const withKey: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${key}`);
    return fetch(input, { ...init, headers });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: withKey })],
      clientConfig: { polling: false },
    }),
  );
  a2a = await factory.createFromUrl(svc.url);
});

afterAll(async () => {
  await svc?.close();
});

function a2aMessage(tool: string, input: unknown): Message {
  return {
    messageId: randomUUID(),
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'data', value: { tool, input } }, metadata: undefined, filename: '', mediaType: 'application/json' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

const text = (r: CallToolResult) => r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');

async function viaRest(tool: string, input: unknown): Promise<{ status: number; body: any }> {
  return api(svc.url, 'POST', `/v1/tools/${tool}/tasks`, { token: key, body: input });
}

async function viaMcp(tool: string, input: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp.callTool({ name: tool.replace(/\./g, '_'), arguments: input })) as CallToolResult;
}

async function viaA2A(tool: string, input: unknown): Promise<Task | Error> {
  try {
    return (await a2a.sendMessage({ tenant: '', message: a2aMessage(tool, input), configuration: undefined, metadata: undefined })) as Task;
  } catch (err) {
    return err as Error;
  }
}

const BAD: [string, Record<string, unknown>, string, string][] = [
  ['a missing field', {}, 'zip', 'zip: is required'],
  ['a custom message', { zip: '1000' }, 'zip', 'zip: must be exactly five digits'],
  ['a number too short', { zip: 1000 }, 'zip', 'zip: must be exactly five digits'],
  ['a wrong type', { zip: '10001', count: 'three' }, 'count', 'count: must be a number'],
  ['a bound', { zip: '10001', count: 11 }, 'count', 'count: must be at most 10'],
  ['an unknown key', { zip: '10001', colour: 'red' }, 'colour', 'colour: is not a known field'],
  ['a nested field', { zip: '10001', contact: { email: 'nope' } }, 'contact.email', 'contact.email: must be an e-mail address'],
  ['a nested unknown key', { zip: '10001', contact: { email: 'a@b.example', phone: '1' } }, 'contact.phone', 'contact.phone: is not a known field'],
];

describe('one sentence for invalid input on REST, MCP and A2A', () => {
  it.each(BAD)('%s', async (_what, input, field, sentence) => {
    const rest = await viaRest('test.zip', input);
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ error: sentence, code: 'INVALID_INPUT', field, retry: false });

    const result = await viaMcp('test.zip', input);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(sentence);

    const answer = await viaA2A('test.zip', input);
    expect(answer).toBeInstanceOf(Error);
    expect((answer as Error).message).toContain(sentence);
    expect((answer as Error).message).not.toMatch(/Invalid input|expected string/);
  });

  it('words a real tool the same way (homeservices.search zip)', async () => {
    const rest = await viaRest('homeservices.search', { service: 'plumber', zip: 'abc' });
    expect(rest.body.error).toBe('zip: must be exactly five digits');
    expect(text(await viaMcp('homeservices.search', { service: 'plumber', zip: 'abc' }))).toBe('zip: must be exactly five digits');
    expect(text(await viaMcp('homeservices.search', { zip: '10001' }))).toBe('service: is required');
  });
});

describe('tools priced by their input', () => {
  // The field that decides the price (render, limit) is checked before any price is worked out from it.
  it.each([
    ['site.page', { url: 'https://example.com/', render: 'yes' }, 'render: must be true or false'],
    ['site.crawl', { url: 'https://example.com/', limit: 0 }, 'limit: must be at least 1'],
    ['site.crawl', { url: 'https://example.com/', max_cost: -1 }, 'max_cost: must be greater than 0'],
  ] as const)('%s %j', async (tool, input, sentence) => {
    const rest = await viaRest(tool, input);
    expect(rest.status).toBe(400);
    expect(rest.body.error).toBe(sentence);
    expect(text(await viaMcp(tool, input))).toBe(sentence);
    const answer = await viaA2A(tool, input);
    expect(answer).toBeInstanceOf(Error);
    expect((answer as Error).message).toContain(sentence);
  });
});

describe('numbers for digit-only string fields', () => {
  it('accepts zip and pro_id as numbers on REST, MCP and A2A', async () => {
    const rest = await viaRest('test.zip', { zip: 10001, pro_id: 42 });
    expect(rest.status).toBe(202);
    const done = await api(svc.url, 'GET', `${rest.body.poll_url}?wait=5`, { token: rest.body.poll_token });
    expect(done.body.result).toEqual({ zip: '10001', pro_id: '42', count: 3 });

    const result = await viaMcp('test.zip', { zip: 10001, pro_id: 42 });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ zip: '10001', pro_id: '42', count: 3 });

    const task = (await viaA2A('test.zip', { zip: 10001 })) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.artifacts[0]?.parts[0]?.content).toEqual({ $case: 'data', value: { zip: '10001', pro_id: null, count: 3 } });
  });

  it('keeps the published schema honest: zip is still a string', async () => {
    const { tools } = await mcp.listTools();
    const schema = tools.find((t) => t.name === 'test_zip')!.inputSchema as unknown as {
      properties: Record<string, { type: string }>;
      additionalProperties: boolean;
    };
    expect(schema.properties.zip!.type).toBe('string');
    expect(schema.additionalProperties).toBe(false);
  });
});

describe('MCP protocol errors', () => {
  async function rpcErrorOf(p: Promise<unknown>): Promise<McpError> {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(McpError);
    return err as McpError;
  }

  it('answers malformed tools/call params with InvalidParams and one sentence', async () => {
    const notObject = await rpcErrorOf(
      mcp.request({ method: 'tools/call', params: { name: 'test_zip', arguments: 'zip=10001' } } as never, CallToolResultSchema),
    );
    expect(notObject.code).toBe(ErrorCode.InvalidParams);
    expect(notObject.message).toBe(`MCP error ${ErrorCode.InvalidParams}: arguments: must be an object`);

    const noName = await rpcErrorOf(mcp.request({ method: 'tools/call', params: { arguments: {} } } as never, CallToolResultSchema));
    expect(noName.code).toBe(ErrorCode.InvalidParams);
    expect(noName.message).toBe(`MCP error ${ErrorCode.InvalidParams}: name: is required`);
  });

  it('never sends the "MCP error" prefix itself (the client adds it once)', async () => {
    const unknown = await rpcErrorOf(mcp.callTool({ name: 'no_such_tool', arguments: {} }));
    expect(unknown.code).toBe(ErrorCode.InvalidParams);
    expect(unknown.message.match(/MCP error/g)).toHaveLength(1);

    // A task-augmented call with bad arguments is refused as a JSON-RPC error: the same sentence.
    const asTask = await rpcErrorOf(
      mcp.request({ method: 'tools/call', params: { name: 'test_zip', arguments: { zip: 'x' }, task: {} } }, CreateTaskResultSchema),
    );
    expect(asTask.code).toBe(ErrorCode.InvalidParams);
    expect(asTask.message).toBe(`MCP error ${ErrorCode.InvalidParams}: zip: must be exactly five digits`);
    expect(asTask.data).toMatchObject({ code: 'INVALID_INPUT', field: 'zip' });
  });
});
