// The real task service in-process with its MCP (/mcp) and A2A (/a2a) doors mounted exactly as `serve`
// mounts them, on an ephemeral port, plus an official MCP SDK client for it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createA2ARouter } from '../../src/a2a/router.js';
import { createApiKey } from '../../src/billing/api-keys.js';
import { startHttpServer, type RunningServer } from '../../src/http/server.js';
import { createMcpRouter } from '../../src/mcp/http.js';
import type { AnyTool } from '../../src/registry/define-tool.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { onFreePort } from './free-port.js';
import { inArrivalOrder } from './mcp-arrival-order.js';
import { testConfig } from './tool-context.js';

export interface McpTestService {
  rt: Runtime;
  server: RunningServer;
  url: string;
  mcpUrl: string;
  createKey(usd: number): Promise<{ key: string; id: string }>;
  /** An SDK client connected over streamable HTTP (with the key as bearer token when given). */
  connect(opts?: { key?: string; headers?: Record<string, string> }): Promise<Client>;
  close(): Promise<void>;
}

export async function startMcpService(env: Record<string, string | undefined> = {}, opts: { tools?: AnyTool[] } = {}): Promise<McpTestService> {
  const { rt, server } = await onFreePort(async (port) => {
    const config = testConfig({ PORT: String(port), POLL_INTERVAL_MS: '50', LEASE_MS: '3000', ...env });
    const rt = await createRuntime(config, opts.tools ? { tools: opts.tools } : {});
    try {
      const mounts = [
        { path: '/mcp', router: createMcpRouter(rt) },
        { path: '/a2a', router: createA2ARouter(rt) },
      ];
      return { rt, server: await startHttpServer(rt, { port, mounts }) };
    } catch (err) {
      await rt.close();
      throw err;
    }
  });
  const clients: Client[] = [];
  return {
    rt,
    server,
    url: server.url,
    mcpUrl: `${server.url}/mcp`,
    async createKey(usd) {
      const { key, row } = await createApiKey(rt.store, { creditsMicros: Math.round(usd * 1_000_000) });
      return { key, id: row.id };
    },
    async connect(o = {}) {
      const headers = { ...(o.key ? { authorization: `Bearer ${o.key}` } : {}), ...o.headers };
      const client = new Client({ name: 'agent-utility-test', version: '1.0.0' });
      await client.connect(inArrivalOrder(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers } })));
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
      await server.close();
      await rt.close();
    },
  };
}
