// Starts the real task service in-process (runtime + HTTP server on an ephemeral port) for tests.
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { startHttpServer, type RunningServer } from '../../src/http/server.js';
import type { HttpAppOptions } from '../../src/http/app.js';
import { createApiKey } from '../../src/billing/api-keys.js';
import type { AnyTool } from '../../src/registry/define-tool.js';
import { testConfig } from './tool-context.js';
import { onFreePort } from './free-port.js';

export interface TestService {
  rt: Runtime;
  server: RunningServer;
  url: string;
  createKey(usd: number, label?: string): Promise<{ key: string; id: string }>;
  close(): Promise<void>;
}

export async function startTestService(
  env: Record<string, string | undefined> = {},
  opts: { tools?: AnyTool[]; http?: HttpAppOptions; workers?: boolean } = {},
): Promise<TestService> {
  const { rt, server } = await onFreePort(async (port) => {
    const config = testConfig({ PORT: String(port), POLL_INTERVAL_MS: '50', LEASE_MS: '3000', ...env });
    const rt = await createRuntime(config, { ...(opts.tools ? { tools: opts.tools } : {}), ...(opts.workers !== undefined ? { workers: opts.workers } : {}) });
    try {
      return { rt, server: await startHttpServer(rt, { ...opts.http, port }) };
    } catch (err) {
      await rt.close();
      throw err;
    }
  });
  return {
    rt,
    server,
    url: server.url,
    async createKey(usd, label) {
      const { key, row } = await createApiKey(rt.store, { creditsMicros: Math.round(usd * 1_000_000), label: label ?? null });
      return { key, id: row.id };
    },
    async close() {
      await server.close();
      await rt.close();
    },
  };
}

export async function api(
  base: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
