// The official MCP conformance suite's server scenarios against both transports: /mcp (streamable HTTP)
// and `agent-utility mcp` (the built CLI over stdio, behind test/support/mcp-stdio-bridge.ts, since the
// suite speaks HTTP only). Scenarios that need the suite's own
// fixture tools, resources and prompts, or optional capabilities we do not offer, are listed in
// test/fixtures/mcp/conformance-baseline.yml; the runner exits non-zero on any other failure and on a
// baseline entry that starts passing. (0.1.13 is the newest release that loads on Node 20.)
// Its client sends no credentials, so the server runs with MCP_AUTH=localhost-off (the local-desktop setting).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { startStdioBridge, type StdioBridge } from '../support/mcp-stdio-bridge.js';
import { testTools } from '../support/test-tools.js';

const require = createRequire(import.meta.url);
const RUNNER = path.join(path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const BASELINE = path.resolve(import.meta.dirname, '../fixtures/mcp/conformance-baseline.yml');

let svc: McpTestService;
let bridge: StdioBridge;
let workDir: string;

beforeAll(async () => {
  svc = await startMcpService({ MCP_AUTH: 'localhost-off' }, { tools: testTools });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-conformance-'));
  const env = { PATH: process.env.PATH ?? '', HOME: workDir, DATA_DIR: path.join(workDir, 'stdio-data'), SECRET: 'c'.repeat(40), LOG_LEVEL: 'warn' };
  bridge = await startStdioBridge(process.execPath, [CLI, 'mcp'], env);
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await bridge?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

it.each([['streamable HTTP'], ['stdio']])(
  '%s: passes every applicable server scenario, and fails exactly the baselined ones',
  async (transport) => {
    const url = transport === 'stdio' ? bridge.url : svc.mcpUrl;
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      // cwd: the runner writes its results/ directory there.
      const child = spawn(process.execPath, [RUNNER, 'server', '--url', url, '--expected-failures', BASELINE], {
        cwd: workDir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.on('error', reject);
      child.on('close', (c) => resolve({ code: c, output: out }));
    });
    const summary = output.slice(output.indexOf('=== SUMMARY ==='));
    expect(code, `${summary}\n${transport === 'stdio' ? bridge.stderr.join('') : ''}`).toBe(0);
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']) {
      expect(summary).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    }
  },
  300_000,
);
