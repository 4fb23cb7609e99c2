// `agent-utility mcp`: MCP over stdio for desktop and CLI agents (Claude Desktop, Claude Code, VS Code,
// Cursor). The engine and its workers run in this process on the embedded SQLite, so nothing else has to
// be running. stdout carries only protocol messages; logs go to stderr. Calls are recorded under the local
// principal and are free, unless MCP_API_KEY is set: then each call is charged to that key like REST.
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { findApiKey } from '../billing/api-keys.js';
import type { Config } from '../config.js';
import { buildFrontDoors } from '../server/front-doors.js';
import { createLogger } from '../logger.js';
import { keyCaller, localCaller, type Caller } from '../web/caller.js';
import { buildMcpServer } from '../mcp/server.js';
import { resolveToolNames } from '../registry/tool-names.js';
import { createRuntime, type Runtime } from '../runtime.js';
import { artifactStoreService } from '../artifacts/service.js';
import { resolveSecret } from '../auth/secret.js';
import { startStdioFileServer } from './stdio-files.js';
import { CliUsageError } from './usage.js';

export async function runMcpStdio(baseConfig: Config, args: string[]): Promise<'running'> {
  const { values } = parseArgs({ args, options: { tools: { type: 'string' } } });
  const toolsArg = values.tools?.split(',').map((t) => t.trim()).filter(Boolean);
  // Desktop clients start servers from an arbitrary working directory: keep data in a fixed place. The
  // in-process lead service (when LEADS_BASE_URL is unset) takes an ephemeral port, so a desktop session
  // never collides with a `serve` on the same machine.
  const stdioConfig: Config = {
    ...baseConfig,
    dataDir: baseConfig.mcp.stdioDataDir,
    leads: { ...baseConfig.leads, port: baseConfig.leads.baseUrl ? baseConfig.leads.port : 0 },
  };
  // Screenshot and PDF links must work for this session: serve /files here unless PUBLIC_URL names a
  // service that does. The store is the runtime's, created below; nothing asks for a file before then.
  let runtimeReady!: (rt: Runtime) => void;
  const ready = { promise: new Promise<Runtime>((resolve) => (runtimeReady = resolve)) };
  const files = stdioConfig.publicUrlExplicit
    ? undefined
    : await startStdioFileServer(async () => (await ready.promise).scope.use(artifactStoreService), resolveSecret(stdioConfig));
  const config: Config = files ? { ...stdioConfig, publicUrl: files.url } : stdioConfig;
  const log = createLogger(config.logLevel).child({ door: 'mcp-stdio' });
  const doors = await buildFrontDoors(config, log);
  const rt: Runtime = await createRuntime(doors.config, { log, workers: true });
  runtimeReady(rt);

  let registry;
  let caller: Caller;
  try {
    registry = rt.registry.subset(resolveNames(rt, toolsArg ?? config.mcp.tools));
    caller = await resolveCaller(rt, config.mcp.apiKey);
  } catch (err) {
    await rt.close();
    await doors.close();
    await files?.close();
    throw err;
  }

  const server = buildMcpServer({
    engine: rt.engine,
    registry,
    config: rt.config,
    log,
    caller,
    artifacts: () => rt.scope.use(artifactStoreService),
    cancelOnAbort: true,
  });

  let closing = false;
  const shutdown = (why: string) => {
    if (closing) return;
    closing = true;
    log.info('mcp stdio server stopping', { why });
    const stop = async () => {
      await server.close().catch(() => undefined);
      await rt.close();
      await doors.close();
      await files?.close();
    };
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  // The client closing our stdin is how a stdio session ends.
  process.stdin.once('end', () => shutdown('stdin closed'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  await server.connect(new StdioServerTransport());
  log.info('mcp stdio server ready', { tools: registry.names.length, store: rt.store.dialect, data_dir: rt.config.dataDir, charged: caller.chargeKeyId !== undefined });
  return 'running';
}

function resolveNames(rt: Runtime, names: string[] | undefined): string[] | undefined {
  if (!names) return undefined;
  try {
    return resolveToolNames(rt.registry, names);
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
}

async function resolveCaller(rt: Runtime, apiKey: string | undefined): Promise<Caller> {
  if (!apiKey) return localCaller('stdio');
  const key = await findApiKey(rt.store, apiKey);
  if (!key) throw new CliUsageError(`MCP_API_KEY is not a key of this service (data dir ${rt.config.dataDir}). Create one with: agent-utility keys create --credits <usd>`);
  if (key.revokedAt !== null) throw new CliUsageError('MCP_API_KEY was revoked; create a new key.');
  return keyCaller(key.id);
}
