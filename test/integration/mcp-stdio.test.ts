// `agent-utility mcp` as Claude Desktop runs it: the BUILT CLI spawned over stdio by the official SDK
// client, with its engine, workers and SQLite in that process and every outside service a local fixture
// (Knot for DNS, SMTP peers, a loopback web server, the in-process lead service with its demo data).
// Every registered tool is called against its fixture; the client checks structuredContent against each
// tool's outputSchema by itself.
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tools as registered } from '../../tools/index.js';
import { CLI, runCli } from '../support/cli.js';
import { CLIENT_KINDS, connectEraClient, type ClientKind, type EraClient } from '../support/mcp-era-clients.js';
import { eraScenarios, text as resultText, type EraProfile } from '../support/mcp-era-scenarios.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { startSmtpPeers, type SmtpPeerGroup } from '../support/smtp-peers.js';
import { inArrivalOrder } from '../support/mcp-arrival-order.js';

const SMTP_HOST = '127.25.3.1';

let knot: KnotServer;
let smtp: SmtpPeerGroup;
let web: LocalServer;
let dataDir: string;
let client: Client;
const clientErrors: Error[] = [];
const stderrChunks: string[] = [];

const PAGE = `<!doctype html><html><head><title>Fixture page</title></head><body>
<h1>Hello fixture</h1><p class="lead">First paragraph.</p><p class="lead">Second paragraph.</p>
<a href="/about">About us</a> <a href="https://elsewhere.example/">Elsewhere</a></body></html>`;

function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    DATA_DIR: dataDir,
    SECRET: 'y'.repeat(40),
    LOG_LEVEL: 'warn',
    DNS_SERVERS: knot.server,
    NETWORK_ALLOWLIST: '127.0.0.0/8',
    SMTP_PROBE_PORT: String(smtp.port),
    SMTP_HELO_NAME: 'probe.mcp.test',
    SMTP_MAIL_FROM: 'verify@probe.mcp.test',
    POLL_INTERVAL_MS: '50',
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
    ...extra,
  };
}

async function connectStdio(extraEnv: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env: env(extraEnv), stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => stderrChunks.push(chunk.toString()));
  const c = new Client({ name: 'agent-utility-stdio-test', version: '1.0.0' });
  c.onerror = (err) => clientErrors.push(err);
  await c.connect(inArrivalOrder(transport));
  return c;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-mcp-stdio-'));
  knot = await startKnot([
    {
      origin: 'example.test',
      records: ['@ 300 IN A 192.0.2.10', '@ 300 IN MX 10 mail', 'mail 300 IN A 192.0.2.25', '@ 300 IN TXT "v=spf1 -all"'],
    },
    { origin: 'mail.test', records: ['@ 300 IN MX 10 mx', `mx 300 IN A ${SMTP_HOST}`] },
  ]);
  smtp = await startSmtpPeers([{ host: SMTP_HOST, behaviour: 'strict', users: ['alice'] }]);
  web = await startLocalServer({
    handler: (req: IncomingMessage, res: ServerResponse) => {
      // Never answers: a call to it runs until it is cancelled (the server closes the socket at the end).
      if (req.url === '/hang') return;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(PAGE);
    },
  });
  client = await connectStdio();
}, 120_000);

afterAll(async () => {
  await client?.close();
  await web?.close();
  await smtp?.stop();
  await knot?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const text = (r: CallToolResult) =>
  r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');

/** The base64 blob of a resource, read with whichever client the suite uses. */
type ReadBlob = (uri: string) => Promise<string>;

/** Calls a tool with whichever client the suite uses; fixtures that need real ids get them this way. */
type CallFn = (name: string, args: Record<string, unknown>) => Promise<CallToolResult>;

interface Fixture {
  args: (call: CallFn) => Record<string, unknown> | Promise<Record<string, unknown>>;
  /** `readBlob` reads a resource over the session that made the result (artifacts are per session). */
  check: (result: CallToolResult, readBlob: ReadBlob) => void | Promise<void>;
}

// One local fixture per production tool. A tool registered without one fails "has a fixture" below.
async function firstPlumber(call: CallFn): Promise<string> {
  const search = await call('homeservices_search', { service: 'plumber', zip: '20001', number_of_results: 1 });
  return (search.structuredContent as { pros: { id: string }[] }).pros[0]!.id;
}

const FIXTURES: Record<string, Fixture> = {
  'dns.lookup': {
    args: () => ({ domain: 'example.test' }),
    check: (r) =>
      expect(r.structuredContent).toMatchObject({ exists: true, records: { A: ['192.0.2.10'], MX: [{ priority: 10, exchange: 'mail.example.test' }] } }),
  },
  'email.verify': {
    args: () => ({ email: 'alice@mail.test' }),
    check: (r) => expect(r.structuredContent).toMatchObject({ email: 'alice@mail.test', deliverable: true, is_mx_valid: true }),
  },
  'ip.geolocate': {
    args: () => ({ ip: '8.8.8.8' }),
    check: (r) => expect(r.structuredContent).toMatchObject({ ip: '8.8.8.8', country_code: 'US' }),
  },
  'geo.locate': {
    args: () => ({ address: '94043' }),
    check: (r) => expect(r.structuredContent).toMatchObject({ components: { postal_code: '94043' } }),
  },
  'url.status': {
    args: () => ({ url: `${web.origin}/` }),
    check: (r) => expect(r.structuredContent).toMatchObject({ status_code: 200, reachable: true }),
  },
  'homeservices.search': {
    args: () => ({ service: 'plumber', zip: '20001', number_of_results: 2 }),
    check: (r) => expect((r.structuredContent as { pros: unknown[] }).pros.length).toBeGreaterThan(0),
  },
  'homeservices.request': {
    // The pro comes from a real search, as an agent would get it.
    args: async (call) => ({ pro_id: await firstPlumber(call), requester: { name: 'Test Person', phone: '+12025550123' }, notes: 'Leaking kitchen tap.' }),
    check: (r) => expect(r.structuredContent).toMatchObject({ status: 'sent' }),
  },
  'browser.screenshot': {
    args: () => ({ html: '<h1>Shot</h1>', width: 320, height: 200 }),
    check: async (r, readBlob) => {
      expect(r.structuredContent).toMatchObject({ content_type: 'image/png', width: 320, height: 200 });
      const link = r.content.find((c) => c.type === 'resource_link') as { uri: string };
      expect(
        Buffer.from(await readBlob(link.uri), 'base64')
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
      expect(r.content.some((c) => c.type === 'image')).toBe(true);
      // The file_url works too: the stdio process serves /files on a loopback port of its own, for as long
      // as the session runs, and the note says so rather than promising 24 hours for the link.
      const fileUrl = (r.structuredContent as { file_url: string }).file_url;
      const notes = (r.structuredContent as { file_url_notes: string }).file_url_notes;
      expect(notes).toMatch(/stops working when the session ends/);
      expect(notes).toContain('agent-utility://tasks/<task_id>/artifact');
      expect(notes).not.toMatch(/^Signed link valid for 24 hours/);
      expect(new URL(fileUrl).hostname).toBe('127.0.0.1');
      const res = await fetch(fileUrl);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    },
  },
  'browser.pdf': {
    args: () => ({ html: '<h1>Paper</h1>' }),
    check: async (r, readBlob) => {
      expect(r.structuredContent).toMatchObject({ content_type: 'application/pdf', pages: 1 });
      const link = r.content.find((c) => c.type === 'resource_link') as { uri: string };
      expect(
        Buffer.from(await readBlob(link.uri), 'base64')
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      const res = await fetch((r.structuredContent as { file_url: string }).file_url);
      expect(res.status).toBe(200);
      expect(
        Buffer.from(await res.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    },
  },
  'browser.content': {
    args: () => ({ url: `${web.origin}/page` }),
    check: (r) => expect(r.structuredContent).toMatchObject({ title: 'Fixture page' }),
  },
  'browser.markdown': {
    args: () => ({ url: `${web.origin}/page` }),
    check: (r) => expect((r.structuredContent as { markdown: string }).markdown).toContain('Hello fixture'),
  },
  'browser.scrape': {
    args: () => ({ url: `${web.origin}/page`, select: { heading: 'h1', leads: 'p.lead' } }),
    check: (r) => expect(JSON.stringify(r.structuredContent)).toContain('Hello fixture'),
  },
  'browser.links': {
    args: () => ({ url: `${web.origin}/page` }),
    check: (r) => expect((r.structuredContent as { count: number }).count).toBeGreaterThanOrEqual(2),
  },
  'browser.snapshot': {
    // With an action, as an agent deciding what to click would use it: the result names each step.
    args: () => ({ url: `${web.origin}/page`, actions: [{ type: 'evaluate', expression: 'document.title' }] }),
    check: (r) => {
      expect((r.structuredContent as { snapshot: string }).snapshot).toContain('Hello fixture');
      expect(r.structuredContent).toMatchObject({ actions: [{ type: 'evaluate', ok: true, result: 'Fixture page' }] });
    },
  },
  'site.page': {
    args: () => ({ url: `${web.origin}/page`, formats: ['metadata'] }),
    check: (r) => expect(r.structuredContent).toMatchObject({ status_code: 200, metadata: { title: expect.any(String) } }),
  },
  'site.crawl': {
    args: () => ({ url: `${web.origin}/page`, limit: 3, sources: 'links' }),
    // The fixture page and the pages it links to (the server answers every path with it).
    check: (r) => expect(r.structuredContent).toMatchObject({ pages: 2, counts: { complete: 2, failed: 0 }, stopped_by: 'done' }),
  },
  'site.map': {
    args: () => ({ url: `${web.origin}/page`, sitemap: 'skip' }),
    check: (r) => expect((r.structuredContent as { count: number }).count).toBeGreaterThanOrEqual(2),
  },
};

describe('agent-utility mcp (stdio, built CLI)', () => {
  it('lists exactly the registered tools, under their underscore names', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(registered.map((t) => t.name.replace(/\./g, '_')).sort());
  });

  it('has a local fixture for every registered tool', () => {
    expect(registered.map((t) => t.name).filter((n) => !FIXTURES[n])).toEqual([]);
  });

  it.each(registered.map((t) => [t.name]))('calls %s against its local fixture', async (name) => {
    const fixture = FIXTURES[name];
    if (!fixture) throw new Error(`no fixture for ${name}`);
    await client.listTools(); // the client checks results against the output schemas it has seen
    const args = await fixture.args(async (n, a) => (await client.callTool({ name: n, arguments: a })) as CallToolResult);
    const result = (await client.callTool({ name: name.replace(/\./g, '_'), arguments: args })) as CallToolResult;
    expect(result.isError, text(result)).toBeFalsy();
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
    await fixture.check(result, async (uri) => ((await client.readResource({ uri })).contents[0] as { blob: string }).blob);
  });

  it('records local calls under the local principal, free', async () => {
    const result = (await client.callTool({ name: 'dns_lookup', arguments: { domain: 'example.test', record_type: 'A' } })) as CallToolResult;
    const taskId = (result._meta as Record<string, string>)['agent-utility/task_id'];
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((t) => t.taskId)).toContain(taskId);
  });

  it('sends progress notifications for a call that asks for them', async () => {
    const seen: { progress: number; message?: string }[] = [];
    await client.callTool({ name: 'dns_lookup', arguments: { domain: 'example.test' } }, CallToolResultSchema, { onprogress: (p) => seen.push(p) });
    expect(seen[0]).toMatchObject({ progress: 0, message: expect.stringMatching(/started/) });
  });

  it('reports the stages of a browser task as progress', async () => {
    const seen: { progress: number; total?: number; message?: string }[] = [];
    await client.callTool({ name: 'browser_screenshot', arguments: { html: '<h1>Stages</h1>', width: 200, height: 100 } }, CallToolResultSchema, {
      onprogress: (p) => seen.push(p),
    });
    expect(seen[0]).toMatchObject({ progress: 0, message: expect.stringMatching(/started/) });
    expect(seen.slice(1).map((p) => p.message?.split(':')[0])).toEqual(['queued', 'navigating', 'loaded', 'rendering', 'storing']);
    expect(seen.slice(1).map((p) => [p.progress, p.total])).toEqual([
      [1, 5],
      [2, 5],
      [3, 5],
      [4, 5],
      [5, 5],
    ]);
  });

  it('cancels the task when the client cancels the request', async () => {
    // A DNS server that receives queries and never answers: the lookup only ends by cancellation.
    const blackhole = dgram.createSocket('udp4');
    let queries = 0;
    blackhole.on('message', () => queries++);
    await new Promise<void>((resolve) => blackhole.bind(0, '127.0.0.1', () => resolve()));
    // Its own data dir, so nothing of this hanging session stays in the main session's queue.
    const slowDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-mcp-stdio-slow-'));
    const slow = await connectStdio({ DNS_SERVERS: `127.0.0.1:${blackhole.address().port}`, DATA_DIR: slowDir });
    try {
      const ac = new AbortController();
      const call = slow.callTool({ name: 'dns_lookup', arguments: { domain: 'example.test', record_type: 'A' } }, CallToolResultSchema, { signal: ac.signal });
      const outcome = call.then(
        () => 'answered',
        () => 'rejected',
      );
      const deadline = Date.now() + 15_000;
      while (queries === 0) {
        if (Date.now() > deadline) throw new Error('the lookup never reached the DNS server');
        await new Promise((r) => setTimeout(r, 20));
      }
      ac.abort('no longer needed');
      expect(await outcome).toBe('rejected');
      // The cancelled call's task, seen through the tasks API of the same (local) principal.
      for (;;) {
        const { tasks } = await slow.experimental.tasks.listTasks();
        if (tasks[0]?.status === 'cancelled') break;
        // dns.lookup would give up by itself after 5 s (2 tries of 2.5 s); cancellation must come first.
        expect(tasks[0]?.status).toBe('working');
        if (Date.now() > deadline) throw new Error('the task was not cancelled');
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await slow.close();
      blackhole.close();
      fs.rmSync(slowDir, { recursive: true, force: true });
    }
  });

  it('runs a call as an MCP task with callToolStream', async () => {
    await client.listTools();
    const types: string[] = [];
    let result: CallToolResult | undefined;
    for await (const m of client.experimental.tasks.callToolStream({ name: 'dns_lookup', arguments: { domain: 'example.test', record_type: 'TXT' } })) {
      types.push(m.type);
      if (m.type === 'result') result = m.result as CallToolResult;
      if (m.type === 'error') throw m.error;
    }
    expect(types[0]).toBe('taskCreated');
    expect(result?.structuredContent).toMatchObject({ records: { TXT: ['v=spf1 -all'] } });
  });

  it('writes nothing but protocol messages to stdout', () => {
    expect(clientErrors).toEqual([]);
  });
});

describe('agent-utility mcp with MCP_API_KEY', () => {
  it('charges each call to the key', async () => {
    const created = runCli(['keys', 'create', '--credits', '1'], env());
    expect(created.status, created.stderr).toBe(0);
    const key = created.stdout.trim();
    const charged = await connectStdio({ MCP_API_KEY: key });
    try {
      const r = (await charged.callTool({ name: 'dns_lookup', arguments: { domain: 'example.test', record_type: 'A' } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
    } finally {
      await charged.close();
    }
    const listed = runCli(['keys', 'list', '--json'], env());
    const keys = JSON.parse(listed.stdout) as { prefix: string; balance_usd: string }[];
    expect(keys.find((k) => key.startsWith(k.prefix))?.balance_usd).toBe('0.999');
  });

  it('refuses to start with a key this service does not know', () => {
    const r = runCli(['mcp'], env({ MCP_API_KEY: 'sk_live_notakeyofthisservice0000000000' }));
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/MCP_API_KEY is not a key of this service/);
  });
});

// Both protocol eras over stdio: the v1 client (2025-11-25), the v2 client pinned to 2026-07-28 and in
// auto mode (its server/discover probe runs on a throwaway process, answered before the engine boots).
const STDIO_PROFILE: EraProfile = {
  quick: { name: 'dns_lookup', args: { domain: 'example.test', record_type: 'A' } },
  badInput: { name: 'dns_lookup', args: {}, error: /^domain: / },
  progress: { name: 'browser_screenshot', args: { html: '<h1>Era</h1>', width: 200, height: 100 }, values: [0, 1, 2, 3, 4, 5] },
  slow: {
    name: 'url_status',
    args: {
      get url() {
        return `${web.origin}/hang`;
      },
    },
  },
};

// Each era's server has its own data directory, so its task listings hold only its own calls. (Sessions
// sharing one directory each run their own tasks: mcp-stdio-sessions.test.ts.)
async function connectEra(kind: ClientKind, eraDir: string): Promise<EraClient> {
  return connectEraClient(kind, {
    command: process.execPath,
    args: [CLI, 'mcp'],
    env: env({ DATA_DIR: eraDir }),
    stderr: (c) => stderrChunks.push(c),
  });
}

describe.each(CLIENT_KINDS)('agent-utility mcp (stdio), %s client', (kind) => {
  let era: EraClient;
  let eraDir: string;
  beforeAll(async () => {
    eraDir = fs.mkdtempSync(path.join(os.tmpdir(), `au-mcp-stdio-${kind}-`));
    era = await connectEra(kind, eraDir);
  }, 120_000);
  afterAll(async () => {
    await era?.close();
    if (eraDir) fs.rmSync(eraDir, { recursive: true, force: true });
  });

  eraScenarios(() => era, STDIO_PROFILE);

  // The v1 client calls every tool in the suite above; the pinned v2 client does it here. The auto client
  // ends in the same era once its probe has answered (its scenarios prove that), so a third sweep of every
  // tool would test the same messages again.
  if (kind === 'v2-pinned') {
    it.each(registered.map((t) => [t.name]))('calls %s against its local fixture', async (name) => {
      const fixture = FIXTURES[name]!;
      await era.listTools(); // the client checks results against the output schemas it has seen
      const args = await fixture.args((n, a) => era.callTool(n, a) as Promise<CallToolResult>);
      const result = await era.callTool(name.replace(/\./g, '_'), args);
      expect(result.isError, resultText(result)).toBeFalsy();
      expect(JSON.parse(resultText(result))).toEqual(result.structuredContent);
      await fixture.check(result, async (uri) => (await era.readResource(uri))[0]!.blob!);
    });
  }
});
