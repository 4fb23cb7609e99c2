// The MCP Inspector's CLI (@modelcontextprotocol/inspector v1, the line that runs on Node 20), a client
// nobody here wrote: tools/list and a tools/call of dns_lookup against Knot, over stdio (spawning the
// built CLI) and over streamable HTTP with an API key.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dnsLookup from '../../tools/dns.lookup.js';
import { CLI } from '../support/cli.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { zipTool } from '../support/zip-tool.js';

const INSPECTOR = path.join(path.dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')), 'cli', 'build', 'cli.js');

let knot: KnotServer;
let svc: McpTestService;
let key: string;
let dataDir: string;

beforeAll(async () => {
  knot = await startKnot([{ origin: 'example.test', records: ['@ 300 IN A 192.0.2.10', '@ 300 IN MX 10 mail'] }]);
  svc = await startMcpService({ DNS_SERVERS: knot.server }, { tools: [dnsLookup, zipTool] });
  ({ key } = await svc.createKey(1));
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-inspector-'));
});

afterAll(async () => {
  await svc?.close();
  await knot?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Runs the inspector in CLI mode; its stdout is the JSON answer. */
function inspector(args: string[]): Promise<{ code: number | null; json: any; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [INSPECTOR, '--cli', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, json, stderr: `${stderr}\n${stdout}` });
    });
  });
}

const stdioTarget = () => [
  '-e',
  `DATA_DIR=${dataDir}`,
  '-e',
  `DNS_SERVERS=${knot.server}`,
  '-e',
  'LOG_LEVEL=warn',
  '-e',
  `SECRET=${'z'.repeat(40)}`,
  process.execPath,
  CLI,
  'mcp',
];
const httpTarget = () => [svc.mcpUrl, '--transport', 'http', '--header', `Authorization: Bearer ${key}`];

describe.each([
  ['stdio', stdioTarget],
  ['streamable HTTP', httpTarget],
])('MCP Inspector CLI over %s', (_name, target) => {
  it('lists the tools', async () => {
    const r = await inspector([...target(), '--method', 'tools/list']);
    expect(r.code, r.stderr).toBe(0);
    const dns = r.json.tools.find((t: { name: string }) => t.name === 'dns_lookup');
    expect(dns).toMatchObject({
      title: 'DNS lookup',
      _meta: { 'agent-utility/tool': 'dns.lookup' },
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object' },
    });
  });

  it('calls dns_lookup', async () => {
    const r = await inspector([...target(), '--method', 'tools/call', '--tool-name', 'dns_lookup', '--tool-arg', 'domain=example.test', 'record_type=MX']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.isError).toBeFalsy();
    expect(r.json.structuredContent).toMatchObject({ domain: 'example.test', records: { MX: [{ priority: 10, exchange: 'mail.example.test' }] } });
  });
});

describe('MCP Inspector CLI, digit-only strings', () => {
  it('sends zip=10001 as a number, and the call still succeeds', async () => {
    const r = await inspector([...httpTarget(), '--method', 'tools/call', '--tool-name', 'test_zip', '--tool-arg', 'zip=10001', 'pro_id=42']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.isError, JSON.stringify(r.json)).toBeFalsy();
    expect(r.json.structuredContent).toEqual({ zip: '10001', pro_id: '42', count: 3 });
  });
});
