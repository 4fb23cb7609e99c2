// The built `agent-utility crawl` end to end on a generated loopback site: with an embedded engine (no
// AGENT_UTILITY_URL) and against an in-process service with an API key. Pages come out as JSONL in crawl
// order; robots.txt's /private/ is never requested.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlSite } from '../../bench/lib/crawl-site.mjs';
import { CLI } from '../support/cli.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { startTestService, type TestService } from '../support/service.js';

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'error', ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

let server: LocalServer;
let site: ReturnType<typeof createCrawlSite>;
let svc: TestService;
const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'au-cli-crawl-'));
  dirs.push(d);
  return d;
};

beforeAll(async () => {
  let port = 0;
  site = createCrawlSite({ hosts: ['127.0.0.1'], pages: 30, port: () => port });
  server = await startLocalServer({ handler: (req, res) => site.handler(req, res) });
  port = server.port;
  svc = await startTestService({ NETWORK_ALLOWLIST: '127.0.0.1/32' });
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await server?.close();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function readLines(file: string): { index: number; url: string; depth: number; status: string }[] {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('agent-utility crawl', () => {
  it('crawls with an embedded engine and writes the pages as JSONL in crawl order', async () => {
    const dir = tmp();
    const out = path.join(dir, 'pages.jsonl');
    const r = await cli(['crawl', `${server.origin}/`, '--limit', '20', '--sources', 'links', '--out', out], {
      DATA_DIR: dir,
      NETWORK_ALLOWLIST: '127.0.0.1/32',
      SECRET: 'c'.repeat(40),
    });
    expect(r.code, r.stderr).toBe(0);
    const lines = readLines(out);
    expect(lines.length).toBe(20);
    expect(lines.map((l) => l.index)).toEqual(lines.map((_, i) => i));
    expect(lines[0]).toMatchObject({ url: `${server.origin}/`, depth: 0, status: 'complete' });
    expect(site.stats.disallowed).toBe(0);
  }, 60_000);

  it('crawls through a remote service with an API key', async () => {
    const { key } = await svc.createKey(1);
    const out = path.join(tmp(), 'pages.jsonl');
    const r = await cli(['crawl', `${server.origin}/`, '--limit', '5', '--out', out], { AGENT_UTILITY_URL: svc.url, AGENT_UTILITY_KEY: key });
    expect(r.code, r.stderr).toBe(0);
    expect(readLines(out).length).toBe(5);
  }, 60_000);

  it('answers a usage mistake with exit 2', async () => {
    const r = await cli(['crawl', '--limit', 'many'], { DATA_DIR: tmp() });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/Usage|whole number/);
  });
});
