// A worker's start-up is the time before it drains anything, and most of it is loading modules: a
// `worker` process must not load the HTTP, MCP or A2A front doors, the browser driver, the lead service
// or the heavy libraries a tool needs only while it runs (issue #19). Checked on the built CLI with a
// loader hook that lists every module the process loads, up to the moment the worker says it started.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, stopChild } from '../support/cli.js';
import { createTestSchema } from '../support/postgres.js';

const TRACE = path.resolve(import.meta.dirname, '../fixtures/module-trace/trace-loads.mjs');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Starts `agent-utility <args>`, waits for `readyLine` on stderr, stops it; returns the modules it loaded. */
async function modulesLoadedBy(args: string[], readyLine: string, extraEnv: Record<string, string> = {}): Promise<string[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-imports-'));
  dirs.push(dataDir);
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SECRET: 's'.repeat(40), LOG_LEVEL: 'info', LEADS_PORT: '0', PORT: '0' };
  delete env.DATABASE_URL;
  Object.assign(env, extraEnv);
  const child = spawn(process.execPath, ['--import', TRACE, CLI, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  try {
    await new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (s: string) => {
        stderr += s;
        if (stderr.includes(readyLine)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited (${code}) before "${readyLine}":\n${stderr.slice(-2000)}`)));
    });
  } finally {
    await stopChild(child);
  }
  const ready = stderr.indexOf(readyLine);
  return [...stderr.slice(0, ready).matchAll(/^LOADED (\S+)$/gm)].map((m) => m[1]!);
}

const root = path.resolve(import.meta.dirname, '../..');
const rel = (url: string) => (url.startsWith('file://') ? path.relative(root, new URL(url).pathname) : url);

/** Whole packages and our own modules a worker has no use for until a task needs them. */
const NOT_FOR_WORKERS = [
  /^node_modules\/express\//,
  /^node_modules\/@modelcontextprotocol\//,
  /^node_modules\/@a2a-js\//,
  /^node_modules\/swagger-ui-dist\//,
  /^node_modules\/playwright-core\//,
  /^node_modules\/pdf-lib\//,
  /^node_modules\/linkedom\//,
  /^node_modules\/@mozilla\/readability\//,
  /^node_modules\/turndown/,
  /^node_modules\/undici\//,
  /^node_modules\/tldts/,
  /^node_modules\/maxmind\//,
  /^node_modules\/libphonenumber-js\//,
  /^node_modules\/viem\//,
  /^node_modules\/@x402\//,
  /^node_modules\/@aws-sdk\//,
  /^dist\/src\/(http|mcp|a2a|billing)\//,
  /^dist\/src\/leads\/(app|service|store|sqlite-store|postgres-store|import)\.js$/,
  // browser/playwright.js is the lazy wrapper itself; playwright-core (above) is what must not load.
  /^dist\/src\/browser\/(pool|navigate|guarded-proxy|markdown|links)\.js$/,
  // us-zips only holds the accessor of the ZIP table homeservices.search checks its input against; the
  // table itself is read on the first call.
  /^dist\/src\/geo\/(ip|place)\/(?!us-zips\.js$)/,
  /^dist\/src\/email\/(verify|smtp-client)\.js$/,
];

describe('worker process role', () => {
  it('loads the engine and the tool definitions, and none of the front doors or tool implementations', async () => {
    const loaded = (await modulesLoadedBy(['worker'], 'agent-utility worker started')).map(rel);
    // The trace works: it saw the engine, the registry's schemas and every tool's definition.
    expect(loaded).toContain('dist/src/engine/worker-pool.js');
    expect(loaded).toContain('dist/tools/ip.geolocate.js');
    expect(loaded).toContain('dist/tools/browser.markdown.js');
    expect(loaded.some((m) => m.startsWith('node_modules/zod/'))).toBe(true);
    const unwanted = loaded.filter((m) => NOT_FOR_WORKERS.some((re) => re.test(m)));
    expect(unwanted).toEqual([]);
  });

  it('loads only its own database driver: no pg on SQLite, no better-sqlite3 on PostgreSQL', async () => {
    const onSqlite = (await modulesLoadedBy(['worker'], 'agent-utility worker started')).map(rel);
    expect(onSqlite.some((m) => m.startsWith('node_modules/better-sqlite3/'))).toBe(true);
    expect(onSqlite.filter((m) => /^node_modules\/pg(-[a-z-]+)?\//.test(m))).toEqual([]);
    const schema = await createTestSchema();
    try {
      const onPostgres = (await modulesLoadedBy(['worker'], 'agent-utility worker started', schema.env)).map(rel);
      expect(onPostgres.some((m) => m.startsWith('node_modules/pg/'))).toBe(true);
      expect(onPostgres.filter((m) => /^node_modules\/(better-sqlite3|bindings)\//.test(m))).toEqual([]);
    } finally {
      await schema.drop();
    }
  });

  it('the same trace sees the front doors in `serve` (so the check above can fail)', async () => {
    const loaded = (await modulesLoadedBy(['serve', '--no-workers', '--port', '0'], 'agent-utility is serving')).map(rel);
    expect(loaded.some((m) => m.startsWith('node_modules/express/'))).toBe(true);
    expect(loaded.some((m) => m.startsWith('dist/src/http/'))).toBe(true);
  });
});
