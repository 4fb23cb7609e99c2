// The built `agent-utility batch` (and `call --out`) end to end: against a real `serve` process and an
// in-process service with the test tools, and with neither set (an embedded engine on a fresh data
// directory). Results are checked in input order in both formats; exit codes 0, 1 and 2; the progress bar
// appears on a terminal (a pseudo-terminal from script(1)) and nowhere else.
import { execFile, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { CLI, runCli, spawnCli, stopChild, waitForHttp } from '../support/cli.js';
import { startDnsProxy, type DnsProxy } from '../support/dns-proxy.js';
import { freePort } from '../support/free-port.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startTestService, type TestService } from '../support/service.js';
import { testTools } from '../support/test-tools.js';

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Runs a command on a pseudo-terminal (script(1)); what it printed there, stdout and stderr together. */
function inTerminal(argv: string[], env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  const command = argv.map((a) => `'${a}'`).join(' ');
  return new Promise((resolve) => {
    execFile('script', ['-qec', command, '/dev/null'], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', TERM: 'xterm', ...env } }, (err, stdout) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout }),
    );
  });
}

let knot: KnotServer;
let proxy: DnsProxy;
let svc: TestService;
let testKey: string;
let served: { url: string; key: string; child: ChildProcess };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-batch-cli-'));

beforeAll(async () => {
  knot = await startKnot([{ origin: 'batch.test', records: ['@ 300 IN A 127.0.0.1', 'www 300 IN A 127.0.0.2', 'api 300 IN A 127.0.0.3'] }]);
  proxy = await startDnsProxy(knot.server);
  svc = await startTestService({}, { tools: testTools });
  testKey = (await svc.createKey(1)).key;
  const dataDir = path.join(dir, 'served');
  fs.mkdirSync(dataDir);
  const port = await freePort();
  const key = runCli(['keys', 'create', '--credits', '1'], { DATA_DIR: dataDir, LOG_LEVEL: 'silent' }).stdout.trim();
  const child = spawnCli(['serve'], {
    DATA_DIR: dataDir,
    PORT: String(port),
    DNS_SERVERS: proxy.server,
    POLL_INTERVAL_MS: '100',
    LOG_LEVEL: 'warn',
    LEADS_PORT: '0',
    RATE_LIMIT_PER_IP: '0',
  });
  served = { url: `http://127.0.0.1:${port}`, key, child };
  await waitForHttp(`${served.url}/healthz`);
}, 60_000);
afterAll(async () => {
  if (served) await stopChild(served.child, 'SIGKILL');
  await svc?.close();
  await proxy?.close();
  await knot?.stop();
});

const DOMAINS = ['www.batch.test', 'batch.test', 'api.batch.test', 'www.batch.test'];
const ADDRESSES: Record<string, string> = { 'batch.test': '127.0.0.1', 'www.batch.test': '127.0.0.2', 'api.batch.test': '127.0.0.3' };

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('agent-utility batch', () => {
  it('remote (a served process): a CSV in, results CSV out in input order, duplicates answered alike, exit 0 and a quiet stderr', async () => {
    const input = write('domains.csv', `domain,record_type\n${DOMAINS.map((d) => `${d},A`).join('\n')}\n`);
    const out = path.join(dir, 'results.csv');
    const r = await cli(['batch', 'dns.lookup', input, '--out', out], { AGENT_UTILITY_URL: served.url, AGENT_UTILITY_KEY: served.key });
    expect(r.stderr).toMatch(
      new RegExp(`^dns\\.lookup: ${DOMAINS.length} item\\(s\\), ${DOMAINS.length} complete, 0 not complete, [\\d.]+ s → .*results\\.csv\\n$`),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const [header, ...rows] = parseCsvSync(fs.readFileSync(out, 'utf8')) as string[][];
    expect(header).toEqual(['index', 'task_id', 'status', 'error', 'result']);
    expect(rows.map((row) => row[0])).toEqual(['0', '1', '2', '3']);
    expect(rows.every((row) => row[2] === 'complete')).toBe(true);
    rows.forEach((row, i) => {
      const result = JSON.parse(row[4]!);
      expect(result.domain).toBe(DOMAINS[i]);
      expect(result.records.A).toEqual([ADDRESSES[DOMAINS[i]!]]);
    });
    // The duplicate input ran once: both positions carry the same task.
    expect(rows[0]![1]).toBe(rows[3]![1]);
  });

  it('remote: a failed item exits 1 with every line still written; bad rows exit 2 listing them', async () => {
    const env = { AGENT_UTILITY_URL: svc.url, AGENT_UTILITY_KEY: testKey };
    const input = write('mixed.jsonl', ['{"value":"a"}', '{"kind":"permanent"}', '{"value":"c"}'].join('\n'));
    // test.echo and test.fail take different inputs: run each as its own batch.
    const ok = await cli(['batch', 'test.echo', write('echo.jsonl', '{"value":"a"}\n{"value":"b"}\n')], env);
    expect(ok.code).toBe(0);
    expect(
      ok.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).result),
    ).toEqual([{ value: 'a' }, { value: 'b' }]);
    const failed = await cli(['batch', 'test.fail', write('fail.jsonl', '{"kind":"permanent"}\n')], env);
    expect(failed.code).toBe(1);
    const line = JSON.parse(failed.stdout.trim());
    expect(line).toMatchObject({ index: 0, status: 'failed' });
    expect(failed.stderr).toContain('1 item(s) did not complete');
    const bad = await cli(['batch', 'test.echo', input], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/row 2.*value/);
    expect(bad.stdout).toBe('');
  });

  it('usage mistakes exit 2', async () => {
    const noKey = await cli(['batch', 'test.echo', write('nokey.jsonl', '{"value":"a"}\n')], { AGENT_UTILITY_URL: svc.url });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('AGENT_UTILITY_KEY');
    expect((await cli(['batch', 'dns.lookup'], { DATA_DIR: dir })).code).toBe(2);
    expect((await cli(['batch', 'dns.lookup', write('x.txt', 'a')], { DATA_DIR: dir })).code).toBe(2);
    expect((await cli(['batch', 'dns.lookup', path.join(dir, 'missing.csv')], { DATA_DIR: dir })).code).toBe(2);
  });

  it('embedded: runs on the local data directory and writes JSONL in input order', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-batch-embedded-'));
    const input = write('domains.jsonl', DOMAINS.map((d) => JSON.stringify({ domain: d, record_type: 'A' })).join('\n'));
    const out = path.join(dataDir, 'results.jsonl');
    const r = await cli(['batch', 'dns.lookup', input, '--out', out], { DATA_DIR: dataDir, DNS_SERVERS: proxy.server });
    expect(r.stderr).toMatch(/^dns\.lookup: \d+ item\(s\), \d+ complete, 0 not complete, [\d.]+ s → .*results\.jsonl\n$/);
    expect(r.code).toBe(0);
    const lines = fs
      .readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.index, l.status, l.result.records.A[0]])).toEqual(DOMAINS.map((d, i) => [i, 'complete', ADDRESSES[d]]));
    const invalid = await cli(['batch', 'dns.lookup', write('bad.csv', 'domain\nbatch.test\n\nnot a domain\n')], {
      DATA_DIR: dataDir,
      DNS_SERVERS: proxy.server,
    });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/row 2 \(domain\)/);
  });

  it('on a terminal, the progress bar shows done/total, rate and ETA on stderr', async () => {
    // script(1) gives the command a pseudo-terminal; stdout goes to a file so only the bar reaches it.
    const input = write('tty.jsonl', '{"value":"x"}\n{"value":"y"}\n{"value":"z"}\n');
    const out = path.join(dir, 'tty-results.jsonl');
    const r = await inTerminal([process.execPath, CLI, 'batch', 'test.echo', input, '--out', out], { AGENT_UTILITY_URL: svc.url, AGENT_UTILITY_KEY: testKey });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/3\/3 \| [\d.]+\/s \| ETA/);
    expect(fs.readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(3);
    // `call` on a terminal: the spinner names the tool and its status before the result.
    const call = await inTerminal([process.execPath, CLI, 'call', 'test.echo', '--value', 'spun'], { AGENT_UTILITY_URL: svc.url, AGENT_UTILITY_KEY: testKey });
    expect(call.code).toBe(0);
    expect(call.stdout).toMatch(/test\.echo: (submitting|pending|running|complete)/);
    expect(call.stdout).toContain('"value": "spun"');
  });
});

describe('agent-utility call --out', () => {
  it('embedded: saves a screenshot as PNG bytes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-call-shot-'));
    const out = path.join(dataDir, 'shot.png');
    const r = await cli(['call', 'browser.screenshot', '--html', '<h1>Batch</h1>', '--width', '320', '--height', '200', '--out', out], { DATA_DIR: dataDir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect([...fs.readFileSync(out).subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  }, 90_000);
});
