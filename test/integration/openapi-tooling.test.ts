// Issue #12: the generated /openapi.json works with the tools people point at it. Redocly's recommended
// rules report nothing (errors or warnings), and openapi-typescript's output type-checks as-is: a field
// with a default is optional in a request body, required ones stay required, Task.payment is typed.
// Both run offline from node_modules (local redocly.yaml, telemetry off).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../src/http/openapi.js';
import { ToolRegistry } from '../../src/registry/registry.js';
import { tools } from '../../tools/index.js';
import { api, startTestService, type TestService } from '../support/service.js';

const root = path.resolve(import.meta.dirname, '../..');
const REDOCLY = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');

let svc: TestService;
let dir: string;
let served: Record<string, unknown>;

beforeAll(async () => {
  svc = await startTestService();
  served = (await api(svc.url, 'GET', '/openapi.json')).body as Record<string, unknown>;
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-openapi-'));
});

afterAll(async () => {
  await svc?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

async function redoclyLint(
  doc: unknown,
  name: string,
): Promise<{ totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] }> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, JSON.stringify(doc));
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  const run = await promisify(execFile)(process.execPath, [REDOCLY, 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'json'], {
    env,
    cwd: dir,
    maxBuffer: 10 << 20,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
  return JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as never;
}

describe('redocly lint (recommended rules)', () => {
  it('finds no error and no warning in /openapi.json', async () => {
    const report = await redoclyLint(served, 'openapi.json');
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('finds none with x402 on either (wallet routes, more security schemes)', async () => {
    const doc = buildOpenApi(new ToolRegistry(tools), { publicUrl: svc.url, version: '0.0.0', x402: true });
    const report = await redoclyLint(doc, 'openapi-x402.json');
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('documents 429 on every rate-limited route and the agent card path', () => {
    const doc = buildOpenApi(new ToolRegistry(tools), { publicUrl: svc.url, version: '0.0.0', x402: true });
    const paths = doc.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    for (const [p, item] of Object.entries(paths)) {
      if (!p.startsWith('/v1/') || p.startsWith('/v1/tools/{tool}') || p === '/v1/tools') continue;
      for (const op of Object.values(item)) expect(Object.keys(op.responses), p).toContain('429');
    }
    expect(paths['/.well-known/agent-card.json']?.get).toBeTruthy();
  });
});

describe('openapi-typescript', () => {
  it('generates types that a client can use as-is', async () => {
    const types = astToString(await openapiTS(served as never));
    fs.writeFileSync(path.join(dir, 'api.ts'), types);
    fs.writeFileSync(
      path.join(dir, 'usage.ts'),
      `import type { components, operations } from './api.js';
type SearchBody = components['requestBodies']['HomeservicesSearchInput']['content']['application/json'];
// number_of_results has a default: the caller may leave it out.
export const ok: SearchBody = { service: 'plumber', zip: '10001' };
// @ts-expect-error zip has no default: it is required.
export const missing: SearchBody = { service: 'plumber' };
type ShotBody = NonNullable<operations['create_browser_screenshot_task']['requestBody']>['content']['application/json'];
export const shot: ShotBody = { url: 'https://example.com' };
declare const task: components['schemas']['Task'];
export const settlement: 'pending' | 'settled' | 'unpaid' | 'void' | undefined = task.payment?.status;
export const tx: string | null | undefined = task.payment?.transaction;
type Created = operations['create_dns_lookup_task']['responses'][202]['content']['application/json'];
export const taskId = (c: Created): string => c.task_id;
`,
    );
    const program = ts.createProgram([path.join(dir, 'usage.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      skipLibCheck: true,
      types: [],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
  });
});
