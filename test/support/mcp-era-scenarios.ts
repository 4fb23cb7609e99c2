// The checks every (client, transport) pair of the era tests runs: the same results, errors,
// cancellation, progress, log messages and completions whatever the protocol era. The tools differ by
// transport (the HTTP service has the test tool set, the stdio CLI the production tools), so each test
// file says which call plays which part.
import { expect, it } from 'vitest';
import type { EraClient } from './mcp-era-clients.js';

export interface ToolCallCase {
  args: Record<string, unknown>;
  /** What structuredContent must hold; absent when the call must fail. */
  expect?: Record<string, unknown>;
  /** The error sentence a failing call must return (isError). */
  error?: RegExp;
}

export interface EraProfile {
  /** A quick call that succeeds (its task events are logged). */
  quick: { name: string; args: Record<string, unknown> };
  /** Bad input: an isError result naming the field. */
  badInput: { name: string; args: Record<string, unknown>; error: RegExp };
  /** A call with progress, and the progress values it must report (the first is 0, "started"). */
  progress: { name: string; args: Record<string, unknown>; values: number[] };
  /** A call that runs until cancelled. */
  slow: { name: string; args: Record<string, unknown> };
}

export const text = (r: { content: unknown[] }) =>
  (r.content as { type: string; text?: string }[])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

/** How each tool of the test set is called, and what it must answer. */
export const TEST_SET_CALLS: Record<string, ToolCallCase> = {
  test_echo: { args: { value: 'hi' }, expect: { value: 'hi' } },
  test_flaky: { args: { key: 'era-flaky', failures: 0 }, expect: {} },
  test_sleep: { args: { ms: 1 }, expect: {} },
  test_progress: { args: { steps: 2, ms: 1 }, expect: { steps: 2 } },
  test_artifact: { args: { bytes: 100 }, expect: { bytes: expect.any(Number) } },
  test_fail: { args: { kind: 'permanent' }, error: /./ },
  test_bad_output: { args: {}, error: /./ },
};

export const TEST_SET_PROFILE: EraProfile = {
  quick: { name: 'test_echo', args: { value: 'logged' } },
  badInput: { name: 'test_echo', args: {}, error: /^value: / },
  progress: { name: 'test_progress', args: { steps: 3, ms: 5 }, values: [0, 1, 2, 3] },
  slow: { name: 'test_sleep', args: { ms: 30_000 } },
};

/** Lists the tools and calls every one of them with its case. */
export function everyToolScenario(target: () => EraClient, calls: Record<string, ToolCallCase>): void {
  it('lists the tools and calls every one of them', async () => {
    const client = target();
    const tools = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const t of tools) expect(t.inputSchema).toMatchObject({ type: 'object' });
    // Every listed tool has a case: a tool added to the set without one fails here.
    expect(names.filter((n) => !calls[n])).toEqual([]);
    for (const name of names) {
      const call = calls[name]!;
      const result = await client.callTool(name, call.args);
      if (call.error) {
        expect(result.isError, name).toBe(true);
        expect(text(result), name).toMatch(call.error);
        continue;
      }
      expect(result.isError, `${name}: ${text(result)}`).toBeFalsy();
      expect(result.structuredContent, name).toMatchObject(call.expect ?? {});
      expect(JSON.parse(text(result).split('\n')[0]!), name).toEqual(result.structuredContent);
    }
  });
}

export function eraScenarios(target: () => EraClient, profile: EraProfile): void {
  it('negotiates its era, and offers the tasks API only where the era has one', async () => {
    const client = target();
    if (client.kind === 'v1') expect(client.protocolVersion()).toBeUndefined();
    else expect(client.protocolVersion()).toBe('2026-07-28');
    const support = new Set((await client.listTools()).map((t) => t.execution?.taskSupport));
    expect([...support]).toEqual([client.kind === 'v1' ? 'optional' : undefined]);
  });

  it('answers bad input as a tool error naming the field, an unknown tool as a JSON-RPC error', async () => {
    const client = target();
    const bad = await client.callTool(profile.badInput.name, profile.badInput.args);
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(profile.badInput.error);
    await expect(client.callTool('no_such_tool', {})).rejects.toThrow(/Unknown tool "no_such_tool"/);
  });

  it('sends progress before the result', async () => {
    const seen: number[] = [];
    const result = await target().callTool(profile.progress.name, profile.progress.args, { onprogress: (p) => seen.push(p.progress) });
    expect(result.isError, text(result)).toBeFalsy();
    expect(seen).toEqual(profile.progress.values);
  });

  it('sends the task’s events as log messages at the level asked for', async () => {
    const client = target();
    const result = await client.callTool(profile.quick.name, profile.quick.args, { logLevel: 'info' });
    const id = (result._meta as Record<string, string>)['agent-utility/task_id'];
    const events = client.logs.filter((m) => (m.data as { task_id?: string }).task_id === id);
    expect(events.map((m) => [m.level, (m.data as { event: string }).event])).toEqual([
      ['info', 'created'],
      ['info', 'running'],
      ['notice', 'complete'],
    ]);
  });

  it('completes plu to plumber', async () => {
    const values = await target().complete('find_home_service', 'service', 'plu');
    expect(values[0]).toBe('plumber');
  });

  it('reads a task of its own as a task:// resource', async () => {
    const client = target();
    expect(await client.listResourceTemplates()).toEqual(expect.arrayContaining(['task://{task_id}']));
    const result = await client.callTool(profile.quick.name, profile.quick.args);
    const id = (result._meta as Record<string, string>)['agent-utility/task_id']!;
    const [content] = await client.readResource(`task://${id}`);
    expect(JSON.parse(content!.text!)).toMatchObject({ task_id: id, status: 'complete' });
  });

  it('cancels the engine task when the client cancels the call', async () => {
    const client = target();
    const ac = new AbortController();
    // The first progress notification says which task a worker started: the cancel must reach that one.
    let started!: (id: string) => void;
    const taskId = new Promise<string>((resolve) => (started = resolve));
    const call = client.callTool(profile.slow.name, profile.slow.args, {
      signal: ac.signal,
      onprogress: (p) => {
        const id = /Task (task_\S+) started/.exec(p.message ?? '')?.[1];
        if (id) started(id);
      },
    });
    const id = await taskId;
    ac.abort('changed my mind');
    await expect(call).rejects.toThrow();
    expect(await settledStatus(client, id)).toBe('cancelled');
  });
}

/** The task's status once it is no longer pending or running, read through the task:// resource. */
async function settledStatus(client: EraClient, id: string): Promise<string> {
  for (;;) {
    const [content] = await client.readResource(`task://${id}`);
    const { status } = JSON.parse(content!.text!) as { status: string };
    if (status !== 'pending' && status !== 'running') return status;
    await new Promise((r) => setTimeout(r, 50));
  }
}
