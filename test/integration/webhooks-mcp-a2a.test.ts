// Webhook options on MCP (tools/call `_meta`, plain and as a task) and A2A (SendMessage `metadata`): the
// same checks and 400 sentences as REST, and a delivery signed with the key's secret (verified with the
// standardwebhooks package), to a loopback receiver.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhookOptions } from '../../src/webhooks/options.js';
import { netGuardService } from '../../src/net/guard.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { testTools } from '../support/test-tools.js';

let svc: McpTestService;
let key: string;
let hook: LocalServer;
const received: { headers: Record<string, string>; body: string }[] = [];

beforeAll(async () => {
  svc = await startMcpService({ NETWORK_ALLOWLIST: '127.0.0.0/8', WEBHOOK_BACKOFF_MS: '1', WEBHOOK_MAX_BACKOFF_MS: '5' }, { tools: testTools });
  ({ key } = await svc.createKey(1));
  hook = await startLocalServer({
    handler: (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
        res.end();
      });
    },
  });
});
afterAll(async () => {
  await hook?.close();
  await svc?.close();
});

/** Waits (bounded by a count of looks) for the webhook about `taskId`. */
async function webhookFor(taskId: string) {
  for (let i = 0; i < 400; i++) {
    const hit = received.find((r) => (JSON.parse(r.body) as { data: { task_id: string } }).data.task_id === taskId);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no webhook arrived for ${taskId}`);
}

async function verified(hit: { headers: Record<string, string>; body: string }) {
  const secret = (await (await fetch(`${svc.url}/v1/webhooks/secret`, { headers: { authorization: `Bearer ${key}` } })).json()) as { secret: string };
  return new Webhook(secret.secret).verify(hit.body, hit.headers) as { type: string; data: { task_id: string; result: unknown } };
}

/** The REST sentence for these options (the wording every door must repeat). */
async function restSentence(options: { webhook_url?: unknown; webhook_events?: unknown }): Promise<string> {
  const guard = await svc.rt.scope.use(netGuardService);
  try {
    parseWebhookOptions(options, 'task', guard);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('these options were accepted');
}

const BAD = [
  { webhook_url: 'ftp://example.com/x' },
  { webhook_url: 'http://10.0.0.1/hook' },
  { webhook_events: ['task.completed'] },
  { webhook_url: 'https://example.com/hook', webhook_events: ['task.exploded'] },
];

describe('webhook options over MCP', () => {
  it('tools/call with _meta.webhook_url: the task event is POSTed, signed with the key secret', async () => {
    const client = await svc.connect({ key });
    const result = await client.callTool({ name: 'test_echo', arguments: { value: 'over mcp' }, _meta: { webhook_url: `${hook.origin}/mcp` } });
    expect(result.isError).toBeFalsy();
    const hit = await waitForBody('over mcp');
    const payload = await verified(hit);
    expect(payload.type).toBe('task.completed');
    expect(payload.data.result).toEqual({ value: 'over mcp' });
    await client.close();
  });

  it('a task-augmented tools/call carries the webhook too', async () => {
    const client = await svc.connect({ key });
    const created = (await client.request(
      { method: 'tools/call', params: { name: 'test_echo', arguments: { value: 'mcp task' }, task: {}, _meta: { webhook_url: `${hook.origin}/mcp-task` } } },
      (await import('@modelcontextprotocol/sdk/types.js')).CreateTaskResultSchema,
    )) as { task: { taskId: string } };
    const payload = await verified(await webhookFor(created.task.taskId));
    expect(payload.data.task_id).toBe(created.task.taskId);
    await client.close();
  });

  it('bad options are refused with the REST sentence (an error result, as bad arguments are)', async () => {
    const client = await svc.connect({ key });
    for (const options of BAD) {
      const result = (await client.callTool({ name: 'test_echo', arguments: { value: 'x' }, _meta: options })) as {
        isError?: boolean;
        content: { text: string }[];
      };
      expect(result.isError, JSON.stringify(options)).toBe(true);
      expect(result.content[0]!.text).toContain(await restSentence(options));
    }
    await client.close();
  });
});

describe('webhook options over A2A', () => {
  const send = (metadata: Record<string, unknown> | undefined, value: string, where: 'request' | 'message' = 'request') =>
    fetch(`${svc.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'message/send',
        params: {
          message: {
            kind: 'message',
            messageId: randomUUID(),
            role: 'user',
            parts: [{ kind: 'data', data: { tool: 'test.echo', input: { value } } }],
            ...(where === 'message' ? { metadata } : {}),
          },
          ...(where === 'request' ? { metadata } : {}),
        },
      }),
    }).then((r) => r.json() as Promise<{ result?: { id: string }; error?: { message: string; data?: unknown } }>);

  it('SendMessage metadata (of the request or of its message) carries webhook_url: the event is POSTed and verifies', async () => {
    for (const where of ['request', 'message'] as const) {
      const body = await send({ webhook_url: `${hook.origin}/a2a-${where}` }, `a2a ${where}`, where);
      expect(body.error, JSON.stringify(body.error)).toBeUndefined();
      const payload = await verified(await webhookFor(body.result!.id));
      expect(payload).toMatchObject({ type: 'task.completed', data: { result: { value: `a2a ${where}` } } });
    }
  });

  it('bad options are refused with the REST sentence (its first words name the field)', async () => {
    for (const options of BAD) {
      const body = await send(options, 'x');
      expect(body.error, JSON.stringify(options)).toBeDefined();
      expect(body.error!.message).toBe(await restSentence(options));
      // Invalid params, as any bad input over A2A (the v0.3 wire carries no error data to name the field in).
      expect(body.error).toMatchObject({ code: -32602 });
    }
  });
});

async function waitForBody(text: string) {
  for (let i = 0; i < 400; i++) {
    const hit = received.find((r) => r.body.includes(text));
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no webhook with ${text}`);
}
