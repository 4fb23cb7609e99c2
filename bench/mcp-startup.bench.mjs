// `agent-utility mcp` as a desktop client starts it: spawn → `initialize` answered, spawn → `tools/list`
// answered, resident memory once idle, and the first call of each tool family (which loads that family's
// data: IP databases, gazetteer, Chromium, the lead service) with the memory after it. This tree against an
// earlier commit built at bench time (BENCH_MCP_BASELINE, default 59c9ed5: the tree before the stdio
// start-up work), alternating, each start with a fresh data directory and a fresh per-user cache folder
// seeded alike. Loopback only: url.status hits a local server; nothing leaves the machine.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, stop, tempDir } from './lib/processes.mjs';
import { buildRelease } from './lib/release-build.mjs';

const BASELINE = process.env.BENCH_MCP_BASELINE ?? '59c9ed5';
// As a user runs them: two global installs of packed tarballs (`npm install -g --prefix <dir> <tgz>`), this
// tree's and the baseline's, each started from its installed bin with an empty HOME (no per-user cache yet).
// BENCH_MCP_INSTALLED=<this tree's prefix>:<baseline prefix>[:<baseline label>].
const INSTALLED = process.env.BENCH_MCP_INSTALLED?.split(':');
const STARTS = Number(process.env.BENCH_MCP_STARTS ?? 5);
const IDLE_MS = 3000;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

/** A JSON-RPC client on the child's stdio, timing each answer from the spawn. */
function startMcp(cli, env) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, 'mcp'], { env: { ...process.env, LOG_LEVEL: 'error', ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiters = new Map();
  let buf = '';
  let id = 0;
  child.stdout.on('data', (d) => {
    buf += d;
    for (let i; (i = buf.indexOf('\n')) >= 0;) {
      const m = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      waiters.get(m.id)?.(m);
    }
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const n = ++id;
      waiters.set(n, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  const notify = (method) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
  return { child, t0, request, notify, stop: () => stop(child) };
}

async function handshake(cli, env) {
  const s = startMcp(cli, env);
  await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  const initMs = performance.now() - s.t0;
  s.notify('notifications/initialized');
  const list = await s.request('tools/list', {});
  const listMs = performance.now() - s.t0;
  if (!list.result?.tools?.length) throw new Error(`tools/list failed: ${JSON.stringify(list)}`);
  return { s, initMs, listMs };
}

export default {
  name: 'mcp-startup',
  title: 'MCP stdio start-up: initialize, idle memory and each first call, against the build before',
  async run() {
    const web = http.createServer((_req, res) => res.end('ok'));
    await new Promise((r) => web.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${web.address().port}/`;
    const installedCli = (prefix) => path.join(prefix, 'lib/node_modules/agent-utility/dist/src/cli.js');
    const base = INSTALLED
      ? { label: `${INSTALLED[2] ?? 'baseline'}, installed`, cli: installedCli(INSTALLED[1]), cleanup: () => undefined }
      : buildRelease(BASELINE);
    const builds = [
      { label: INSTALLED ? 'this tree, installed' : 'this tree', cli: INSTALLED ? installedCli(INSTALLED[0]) : path.join(ROOT, 'dist/src/cli.js') },
      { label: base.label, cli: base.cli },
    ];
    const calls = [
      ['url_status (local server)', 'url_status', { url }],
      ['ip_geolocate (IP databases)', 'ip_geolocate', { ip: '8.8.8.8' }],
      ['geo_locate (gazetteer)', 'geo_locate', { address: 'Springfield, IL' }],
      ['homeservices_search (lead service)', 'homeservices_search', { zip: '10001', service: 'plumber' }],
      ['browser_screenshot (Chromium)', 'browser_screenshot', { html: '<h1>bench</h1>', width: 200, height: 100 }],
    ];
    // The per-user cache (~/.agent-utility/cache) is this tree's; the baseline kept its cache in
    // node_modules/.cache. Each HOME starts with whatever `npm run setup` built, so both begin warm.
    const realCache = path.join(os.homedir(), '.agent-utility', 'cache');
    const freshHome = () => {
      const home = tempDir('au-bench-home-');
      if (!INSTALLED && fs.existsSync(realCache)) fs.cpSync(realCache, path.join(home, '.agent-utility', 'cache'), { recursive: true });
      return home;
    };
    const envFor = () => ({ DATA_DIR: tempDir(), HOME: freshHome(), NETWORK_ALLOWLIST: '127.0.0.0/8' });
    const rows = new Map(builds.map((b) => [b.label, { init: [], list: [], idle: [], first: new Map(), after: 0 }]));
    try {
      for (let i = 0; i < STARTS; i++) {
        for (const b of i % 2 ? [...builds].reverse() : builds) {
          const { s, initMs, listMs } = await handshake(b.cli, envFor());
          const row = rows.get(b.label);
          row.init.push(initMs);
          row.list.push(listMs);
          await new Promise((r) => setTimeout(r, IDLE_MS));
          row.idle.push(rssMb(s.child.pid));
          if (i === 0) {
            for (const [label, name, args] of calls) {
              const t = performance.now();
              const r = await s.request('tools/call', { name, arguments: args });
              const ms = performance.now() - t;
              row.first.set(label, { ms, rss: rssMb(s.child.pid), error: r.error?.message ?? (r.result?.isError ? r.result.content?.[0]?.text : undefined) });
            }
          }
          await s.stop();
        }
      }
    } finally {
      base.cleanup();
      web.close();
    }
    const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`);
    const [mine, theirs] = builds.map((b) => rows.get(b.label));
    const lines = [
      ...(INSTALLED
        ? [
            'Both run from a global install of their packed tarball (`npm install -g --prefix`), each start with an empty HOME (no per-user cache: the gazetteer builds its name keys on its first call) and an empty data directory.',
            '',
          ]
        : []),
      `Load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(', ')} (a shared machine: compare the columns, not runs).`,
      '',
      `| ${STARTS} starts each, median | ${builds[0].label} | ${base.label} |`,
      '|---|---|---|',
      `| spawn → initialize answered | ${fmt(median(mine.init))} | ${fmt(median(theirs.init))} |`,
      `| spawn → tools/list answered | ${fmt(median(mine.list))} | ${fmt(median(theirs.list))} |`,
      `| resident memory, idle ${IDLE_MS / 1000} s after tools/list | ${Math.round(median(mine.idle))} MB | ${Math.round(median(theirs.idle))} MB |`,
      '',
      `| first call of the session (in this order) | ${builds[0].label} | ${base.label} |`,
      '|---|---|---|',
    ];
    for (const [label] of calls) {
      const a = mine.first.get(label);
      const b = theirs.first.get(label);
      const cell = (c) => `${fmt(c.ms)}, ${Math.round(c.rss)} MB after${c.error ? ` (error: ${String(c.error).slice(0, 60)})` : ''}`;
      lines.push(`| ${label} | ${cell(a)} | ${cell(b)} |`);
    }
    return lines.join('\n');
  },
};
