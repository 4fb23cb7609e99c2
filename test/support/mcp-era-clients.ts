// The three MCP clients every era test runs: the v1 SDK client (2025-11-25, initialize), and the v2 SDK
// client (`@modelcontextprotocol/client` 2.x) pinned to 2026-07-28 and in auto mode (which probes with
// server/discover). One small adapter gives the tests one shape for all three; the wire is theirs.
import { Client as V2Client, StreamableHTTPClientTransport as V2HttpTransport, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1HttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { inArrivalOrder } from './mcp-arrival-order.js';

export type ClientKind = 'v1' | 'v2-pinned' | 'v2-auto';
export const CLIENT_KINDS: ClientKind[] = ['v1', 'v2-pinned', 'v2-auto'];

export type Endpoint =
  { http: string; headers?: Record<string, string> } | { command: string; args: string[]; env: Record<string, string>; stderr?: (chunk: string) => void };

export interface LogMessage {
  level: string;
  logger?: string;
  data: unknown;
}

export interface EraClient {
  kind: ClientKind;
  /** The protocol revision the connection ended up on. */
  protocolVersion(): string | undefined;
  listTools(): Promise<{ name: string; inputSchema: unknown; outputSchema?: unknown; execution?: { taskSupport?: string } }[]>;
  callTool(
    name: string,
    args: Record<string, unknown>,
    opts?: { onprogress?: (p: { progress: number; total?: number; message?: string }) => void; signal?: AbortSignal; logLevel?: string },
  ): Promise<CallToolResult>;
  complete(prompt: string, argument: string, value: string): Promise<string[]>;
  listPrompts(): Promise<string[]>;
  readResource(uri: string): Promise<{ uri: string; text?: string; blob?: string }[]>;
  listResourceTemplates(): Promise<string[]>;
  logs: LogMessage[];
  close(): Promise<void>;
}

export async function connectEraClient(kind: ClientKind, endpoint: Endpoint): Promise<EraClient> {
  const info = { name: `agent-utility-${kind}-test`, version: '1.0.0' };
  const logs: LogMessage[] = [];
  if (kind === 'v1') {
    const client = new V1Client(info);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    if ('http' in endpoint) {
      await client.connect(inArrivalOrder(new V1HttpTransport(new URL(endpoint.http), { requestInit: { headers: endpoint.headers ?? {} } })));
    } else {
      const t = new V1StdioTransport({ command: endpoint.command, args: endpoint.args, env: endpoint.env, stderr: 'pipe' });
      t.stderr?.on('data', (c: Buffer) => endpoint.stderr?.(c.toString()));
      await client.connect(inArrivalOrder(t));
    }
    return {
      kind,
      logs,
      // The v1 client does not expose what initialize agreed; its transports carry 2025-11-25 (its latest).
      protocolVersion: () => undefined,
      listTools: async () => (await client.listTools()).tools,
      async callTool(name, args, opts = {}) {
        if (opts.logLevel) await client.setLoggingLevel(opts.logLevel as 'info');
        const r = await client.callTool({ name, arguments: args }, CallToolResultSchema, {
          ...(opts.onprogress ? { onprogress: opts.onprogress } : {}),
          ...(opts.signal ? { signal: opts.signal } : {}),
          timeout: 60_000,
        });
        return r as CallToolResult;
      },
      complete: async (prompt, argument, value) =>
        (await client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } })).completion.values,
      listPrompts: async () => (await client.listPrompts()).prompts.map((p) => p.name),
      readResource: async (uri) => (await client.readResource({ uri })).contents as { uri: string; text?: string; blob?: string }[],
      listResourceTemplates: async () => (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
      close: () => client.close(),
    };
  }
  const client = new V2Client(info, { versionNegotiation: { mode: kind === 'v2-pinned' ? { pin: '2026-07-28' } : 'auto' } });
  client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params as LogMessage));
  if ('http' in endpoint) {
    await client.connect(inArrivalOrder(new V2HttpTransport(new URL(endpoint.http), { requestInit: { headers: endpoint.headers ?? {} } })));
  } else {
    const t = new V2StdioTransport({ command: endpoint.command, args: endpoint.args, env: endpoint.env, stderr: 'pipe' });
    t.stderr?.on('data', (c: Buffer) => endpoint.stderr?.(c.toString()));
    await client.connect(inArrivalOrder(t));
  }
  return {
    kind,
    logs,
    protocolVersion: () => client.getNegotiatedProtocolVersion(),
    listTools: async () => (await client.listTools()).tools,
    async callTool(name, args, opts = {}) {
      const r = await client.callTool(
        { name, arguments: args, ...(opts.logLevel ? { _meta: { [LOG_LEVEL_META_KEY]: opts.logLevel } } : {}) },
        { ...(opts.onprogress ? { onprogress: opts.onprogress } : {}), ...(opts.signal ? { signal: opts.signal } : {}), timeout: 60_000 },
      );
      return r as unknown as CallToolResult;
    },
    complete: async (prompt, argument, value) =>
      (await client.complete({ ref: { type: 'ref/prompt', name: prompt }, argument: { name: argument, value } })).completion.values,
    listPrompts: async () => (await client.listPrompts()).prompts.map((p) => p.name),
    readResource: async (uri) => (await client.readResource({ uri })).contents as { uri: string; text?: string; blob?: string }[],
    listResourceTemplates: async () => (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
    close: () => client.close(),
  };
}
