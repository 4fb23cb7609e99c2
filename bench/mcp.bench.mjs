// MCP overhead: tools/call latency of dns.lookup (against a local Knot) over MCP stdio and over MCP
// streamable HTTP, against the same call over REST (create the task, then GET ?wait for it) in the same
// run. Calls go one at a time, in short interleaved slices so a busy moment on a shared machine hits all
// three alike. Loopback only; every server is the built CLI in a child process.
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import ts from 'typescript';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { fmt } from './lib/load.mjs';
import { CLI, cli, freePort, startService, tempDir } from './lib/processes.mjs';
import { postTask, waitCompleted } from './lib/rest.mjs';

const WARMUP = 40;
const SLICE = 50;
const ROUNDS = 8;

/** test/support/knot.ts compiled on the fly (it imports only node: builtins). */
async function loadKnotHarness() {
  const source = fs.readFileSync(new URL('../test/support/knot.ts', import.meta.url), 'utf8');
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const dir = new URL('../node_modules/.cache/agent-utility-bench/', import.meta.url);
  fs.mkdirSync(dir, { recursive: true });
  const file = new URL('knot.mjs', dir);
  fs.writeFileSync(file, js);
  return import(file.href);
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))];

export default {
  name: 'mcp',
  title: 'MCP tools/call latency (stdio and streamable HTTP) against REST create-and-wait',
  async run() {
    const { startKnot } = await loadKnotHarness();
    const knot = await startKnot([{ origin: 'bench.test', records: ['@ 300 IN A 127.0.0.1', '@ 300 IN MX 10 mx'] }]);
    const cleanup = [() => knot.stop()];
    try {
      const common = { DNS_SERVERS: knot.server, RATE_LIMIT_PER_IP: '0', RATE_LIMIT_PER_KEY: '0', LEADS_PORT: '0', LOG_LEVEL: 'warn', SECRET: 's'.repeat(40) };
      const port = await freePort();
      const env = { ...common, DATA_DIR: tempDir(), PORT: String(port) };
      const key = cli(['keys', 'create', '--credits', '100000'], env);
      const service = await startService(['serve'], env, `http://127.0.0.1:${port}/healthz`);
      cleanup.push(() => service.stop());
      const origin = `http://127.0.0.1:${port}`;

      const http = new Client({ name: 'bench-http', version: '1' });
      await http.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      cleanup.push(() => http.close());
      const stdio = new Client({ name: 'bench-stdio', version: '1' });
      await stdio.connect(
        new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], env: { ...process.env, ...common, DATA_DIR: tempDir() }, stderr: 'inherit' }),
      );
      cleanup.push(() => stdio.close());
      await http.listTools();
      await stdio.listTools();

      const args = { domain: 'bench.test', record_type: 'A' };
      const body = JSON.stringify(args);
      const mcpCall = (client) => async () => {
        const r = await client.callTool({ name: 'dns_lookup', arguments: args });
        if (r.isError) throw new Error(r.content?.[0]?.text ?? 'tool error');
      };
      const candidates = {
        'REST: POST /v1/tools/dns.lookup/tasks, then GET ?wait=10 (baseline)': async () => {
          await waitCompleted(origin, await postTask(origin, key, 'dns.lookup', body));
        },
        'MCP streamable HTTP: tools/call (stateless, one POST)': mcpCall(http),
        'MCP stdio: tools/call (engine in the agent-utility mcp process)': mcpCall(stdio),
      };

      const names = Object.keys(candidates);
      const samples = Object.fromEntries(names.map((n) => [n, []]));
      for (const once of Object.values(candidates)) for (let i = 0; i < WARMUP; i++) await once();
      for (let round = 0; round < ROUNDS; round++) {
        const order = names.map((_, i) => names[(i + round) % names.length]);
        for (const name of order) {
          for (let i = 0; i < SLICE; i++) {
            const t0 = performance.now();
            await candidates[name]();
            samples[name].push(performance.now() - t0);
          }
        }
      }
      const stats = Object.fromEntries(
        names.map((n) => {
          const sorted = [...samples[n]].sort((a, b) => a - b);
          return [n, { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), n: sorted.length }];
        }),
      );
      const rest = stats[names[0]];
      const rows = names.map((n, i) => {
        const s = stats[n];
        const delta = i === 0 ? '' : `${s.p50 - rest.p50 >= 0 ? '+' : ''}${fmt(s.p50 - rest.p50, 2)}`;
        return `| ${i === 0 ? `**${n}**` : n} | ${s.n} | ${fmt(s.p50, 2)} | ${fmt(s.p99, 2)} | ${delta} |`;
      });
      const versus = (delta) => `**${fmt(Math.abs(delta), 2)} ms** ${delta >= 0 ? 'slower' : 'faster'}`;
      const overHttp = stats[names[1]].p50 - rest.p50;
      const overStdio = stats[names[2]].p50 - rest.p50;
      return `
| Path (dns.lookup of bench.test, one call at a time) | Calls | p50 ms | p99 ms | p50 vs REST ms |
|---|---:|---:|---:|---:|
${rows.join('\n')}

- At p50, MCP over streamable HTTP is ${versus(overHttp)} than REST's create-and-wait, and MCP over stdio is ${versus(overStdio)} (goal: MCP adds ≤ 2 ms).
- REST and MCP HTTP hit the same \`agent-utility serve\` process (workers in process, SQLite); stdio runs its own engine in the \`agent-utility mcp\` process, so its figure also leaves out the HTTP hop. An MCP HTTP call is one POST answered as SSE; the REST path is two requests (create, then \`?wait\`). Every call is a real engine task (charged to a key for REST and HTTP, local and free for stdio).
`;
    } finally {
      for (const c of cleanup.reverse()) await c().catch(() => undefined);
    }
  },
};
