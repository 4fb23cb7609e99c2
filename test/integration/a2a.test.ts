// A2A at /a2a, driven by the official @a2a-js/sdk client against the real service: it resolves the agent
// card from the well-known path, sends {tool, input} messages (billed to the API key like REST), reads,
// lists and cancels the tasks; a v0.3 client's raw JSON-RPC is answered too.
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Task } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { testTools } from '../support/test-tools.js';

let svc: McpTestService;
let key: string;
let keyId: string;

beforeAll(async () => {
  svc = await startMcpService({}, { tools: testTools });
  ({ key, id: keyId } = await svc.createKey(1));
});

afterAll(async () => {
  await svc?.close();
});

function withKey(k: string | undefined): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers);
    if (k) headers.set('authorization', `Bearer ${k}`);
    return fetch(input, { ...init, headers });
  };
}

async function a2aClient(k: string | undefined, opts: { polling?: boolean } = {}): Promise<Client> {
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: withKey(k) })],
      clientConfig: { polling: opts.polling ?? false },
    }),
  );
  return factory.createFromUrl(svc.url);
}

function toolMessage(tool: string, input: unknown): Message {
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

const asTask = (r: Message | Task): Task => {
  expect('status' in r).toBe(true);
  return r as Task;
};

describe('A2A', () => {
  it('serves a card listing the interface, a skill per tool and the API-key scheme', async () => {
    const card = await (await fetch(`${svc.url}/.well-known/agent-card.json`)).json();
    expect(card.supportedInterfaces).toEqual(expect.arrayContaining([{ url: `${svc.url}/a2a`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]));
    expect(card.url).toBe(`${svc.url}/a2a`);
    expect(card.skills.map((s: { id: string }) => s.id).sort()).toEqual(testTools.map((t) => t.name).sort());
    expect(card.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer', httpAuthSecurityScheme: { scheme: 'Bearer' } });
    expect(await (await fetch(`${svc.url}/.well-known/agent.json`)).json()).toEqual(card);
  });

  it('runs a tool from a data part, billed to the key, and returns the result as an artifact', async () => {
    const client = await a2aClient(key);
    const before = (await svc.rt.store.findKey(keyId))!.balanceMicros;
    const task = asTask(
      await client.sendMessage({ tenant: '', message: toolMessage('test.echo', { value: 'over a2a' }), configuration: undefined, metadata: undefined }),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const part = task.artifacts[0]?.parts[0]?.content;
    expect(part).toEqual({ $case: 'data', value: { value: 'over a2a' } });
    expect(await svc.rt.store.getTask(task.id)).toMatchObject({ tool: 'test.echo', payer: { kind: 'key', id: keyId } });
    expect((await svc.rt.store.findKey(keyId))!.balanceMicros).toBe(before - 10_000);
    const got = await client.getTask({ tenant: '', id: task.id, historyLength: undefined });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const listed = await client.listTasks({
      tenant: '',
      contextId: '',
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((t) => t.id)).toContain(task.id);
  });

  it('accepts MCP-style tool names and reports a failed task with its sentence', async () => {
    const client = await a2aClient(key);
    const task = asTask(
      await client.sendMessage({ tenant: '', message: toolMessage('test_fail', { kind: 'permanent' }), configuration: undefined, metadata: undefined }),
    );
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    const text = task.status?.message?.parts[0]?.content;
    expect(text).toEqual({ $case: 'text', value: expect.stringContaining('failed as asked (permanent)') });
  });

  it('cancels a running task, reaching the worker', async () => {
    const client = await a2aClient(key, { polling: true });
    const task = asTask(
      await client.sendMessage({
        tenant: '',
        message: toolMessage('test.sleep', { ms: 1400, key: 'a2a-cancel' }),
        configuration: undefined,
        metadata: undefined,
      }),
    );
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(task.status?.state);
    const deadline = Date.now() + 10_000;
    while ((await svc.rt.store.getTask(task.id))?.status !== 'running') {
      if (Date.now() > deadline) throw new Error('the task never started');
      await new Promise((r) => setTimeout(r, 20));
    }
    const cancelled = await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect((await svc.rt.store.getTask(task.id))?.status).toBe('cancelled');
  });

  it('rejects bad input, naming the field, without creating a task', async () => {
    const client = await a2aClient(key);
    await expect(client.sendMessage({ tenant: '', message: toolMessage('test.echo', {}), configuration: undefined, metadata: undefined })).rejects.toThrow(
      /value: is required/,
    );
    await expect(client.sendMessage({ tenant: '', message: toolMessage('no.such', {}), configuration: undefined, metadata: undefined })).rejects.toThrow(
      /Unknown tool "no.such"/,
    );
  });

  it("hides another key's tasks", async () => {
    const mine = asTask(
      await (
        await a2aClient(key)
      ).sendMessage({ tenant: '', message: toolMessage('test.echo', { value: 'mine' }), configuration: undefined, metadata: undefined }),
    );
    const other = await a2aClient((await svc.createKey(1)).key);
    await expect(other.getTask({ tenant: '', id: mine.id, historyLength: undefined })).rejects.toThrow(/No task/);
  });

  it('needs an API key', async () => {
    const client = await a2aClient(undefined);
    await expect(
      client.sendMessage({ tenant: '', message: toolMessage('test.echo', { value: 'x' }), configuration: undefined, metadata: undefined }),
    ).rejects.toThrow();
    const res = await fetch(`${svc.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'task_x' } }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('answers a v0.3 client (message/send without A2A-Version)', async () => {
    const res = await fetch(`${svc.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'message/send',
        params: {
          message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'data', data: { tool: 'test.echo', input: { value: 'v0.3' } } }] },
        },
      }),
    });
    const body = await res.json();
    expect(body.error).toBeUndefined();
    expect(body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    expect(body.result.artifacts[0].parts[0]).toMatchObject({ kind: 'data', data: { value: 'v0.3' } });
  });
});
