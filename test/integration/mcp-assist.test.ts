// Prompts, completion/complete, logging/setLevel and the task:// resource template over streamable HTTP,
// driven by the official v1 SDK client against the real service on an ephemeral port.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, type CallToolResult, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import browserPdf from '../../tools/browser.pdf.js';
import dnsLookup from '../../tools/dns.lookup.js';
import homeservicesSearch from '../../tools/homeservices.search.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { testTools } from '../support/test-tools.js';

let svc: McpTestService;
let client: Client;
const messages: LoggingMessageNotification['params'][] = [];

beforeAll(async () => {
  svc = await startMcpService({}, { tools: [...testTools, dnsLookup, homeservicesSearch, browserPdf] });
  const { key } = await svc.createKey(1);
  client = await svc.connect({ key });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    messages.push(n.params);
  });
});

afterAll(async () => {
  await svc?.close();
});

describe('prompts', () => {
  it('answers a bad prompts/get with the sentence once (no "MCP error -32602:" inside the message)', async () => {
    const err = (await client.getPrompt({ name: 'dns_check', arguments: {} }).catch((e: unknown) => e)) as Error & { code: number };
    expect(err.code).toBe(-32602);
    // The client prefixes "MCP error -32602: " itself; the server's message must not carry it already.
    expect(err.message).toMatch(/^MCP error -32602: Prompt "dns_check" needs domain/);
    expect(err.message.match(/MCP error/g)).toHaveLength(1);
  });

  it('lists only prompts whose tools are exposed, and renders one', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['dns_check', 'find_home_service', 'save_page_pdf']);
    const got = await client.getPrompt({ name: 'find_home_service', arguments: { service: 'plumber', zip: '10001' } });
    expect(got.messages[0]!.content).toMatchObject({ type: 'text', text: expect.stringContaining('homeservices_search') });
    await expect(client.getPrompt({ name: 'dns_check', arguments: { domain: 'example.com', record_type: 'XX' } })).rejects.toThrow(
      /record_type must be one of/,
    );
  });
});

describe('completion/complete', () => {
  it('completes a service category from its first letters', async () => {
    const { completion } = await client.complete({ ref: { type: 'ref/prompt', name: 'find_home_service' }, argument: { name: 'service', value: 'plu' } });
    expect(completion.values[0]).toBe('plumber');
    expect(completion.values).toEqual(expect.arrayContaining(['plumbing']));
  });

  it('completes record types and paper sizes, and nothing for free text', async () => {
    const mx = await client.complete({ ref: { type: 'ref/prompt', name: 'dns_check' }, argument: { name: 'record_type', value: 'm' } });
    expect(mx.completion.values).toEqual(['MX']);
    const a = await client.complete({ ref: { type: 'ref/prompt', name: 'save_page_pdf' }, argument: { name: 'size', value: 'a' } });
    expect(a.completion.values).toEqual(['a4', 'a3', 'a5']);
    const free = await client.complete({ ref: { type: 'ref/prompt', name: 'dns_check' }, argument: { name: 'domain', value: 'ex' } });
    expect(free.completion.values).toEqual([]);
  });
});

describe('logging', () => {
  it('sends the caller’s task events as log messages once a level is set', async () => {
    messages.length = 0;
    await client.callTool({ name: 'test_echo', arguments: { value: 'quiet' } });
    expect(messages).toEqual([]);

    await client.setLoggingLevel('info');
    const ok = (await client.callTool({ name: 'test_echo', arguments: { value: 'x' } })) as CallToolResult;
    const id = (ok._meta as Record<string, string>)['agent-utility/task_id'];
    const events = messages.filter((m) => (m.data as { task_id: string }).task_id === id);
    expect(events.map((m) => [m.level, (m.data as { event: string }).event])).toEqual([
      ['info', 'created'],
      ['info', 'running'],
      ['notice', 'complete'],
    ]);

    await client.setLoggingLevel('error');
    messages.length = 0;
    await client.callTool({ name: 'test_echo', arguments: { value: 'y' } });
    await client.callTool({ name: 'test_fail', arguments: { kind: 'permanent' } });
    expect(messages.map((m) => [m.level, (m.data as { event: string }).event])).toEqual([['error', 'failed']]);
  });
});

describe('resource templates', () => {
  it('lists the task, result and artifact templates, reads a task, and completes task ids', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'task://{task_id}',
      'agent-utility://tasks/{task_id}/result{?offset,max_chars,chunks}',
      'agent-utility://tasks/{task_id}/artifact',
    ]);
    const done = (await client.callTool({ name: 'test_echo', arguments: { value: 'r' } })) as CallToolResult;
    const id = (done._meta as Record<string, string>)['agent-utility/task_id']!;
    const read = await client.readResource({ uri: `task://${id}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ task_id: id, status: 'complete', tool: 'test.echo' });
    await expect(client.readResource({ uri: 'task://task_nope' })).rejects.toThrow(/Resource not found/);
    const c = await client.complete({ ref: { type: 'ref/resource', uri: 'task://{task_id}' }, argument: { name: 'task_id', value: id.slice(0, -2) } });
    expect(c.completion.values).toContain(id);
  });
});
