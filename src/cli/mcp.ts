// `agent-utility mcp`: MCP over stdio for desktop and CLI agents (Claude Desktop, Claude Code, VS Code,
// Cursor). The engine and its workers run in this process on the embedded SQLite, so nothing else has to
// be running. stdout carries only protocol messages; logs go to stderr. Calls are recorded under the local
// principal and are free, unless MCP_API_KEY is set: then each call is charged to that key like REST.
import { parseArgs } from 'node:util';
import { serveStdio, StdioServerTransport as ModernStdioTransport } from '@modelcontextprotocol/server/stdio';
import type { Config } from '../config.js';
import { createLogger, type Logger } from '../logger.js';
import { keyCaller, localCaller, type Caller } from '../web/caller.js';
import { buildModernMcpServer } from '../mcp/modern-server.js';
import { readOpening } from '../mcp/stdio-opening.js';
import type { McpServerDeps } from '../mcp/server.js';
import { resolveToolNames } from '../registry/tool-names.js';
import type { Runtime } from '../runtime.js';
import { CliUsageError } from './usage.js';

export async function runMcpStdio(baseConfig: Config, args: string[]): Promise<'running'> {
  const { values } = parseArgs({ args, options: { tools: { type: 'string' } } });
  const toolsArg = values.tools
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const log = createLogger(baseConfig.logLevel).child({ door: 'mcp-stdio' });
  // The first message picks the era. A v2 client in auto mode probes with server/discover on a throwaway
  // process before it starts the real one, so a discover opening is answered before the engine boots: the
  // probe then costs a Node start, not a full service start (and never touches the data directory).
  const opening = readOpening(process.stdin);
  let session: StdioSession | undefined;
  const boot = once(async () => (session = await startSession(baseConfig, toolsArg, log)));

  let closing = false;
  const shutdown = (why: string) => {
    if (closing) return;
    closing = true;
    log.info('mcp stdio server stopping', { why });
    const stop = async () => {
      await closeServer?.().catch(() => undefined);
      if (boot.started()) await (await boot().catch(() => undefined))?.close();
    };
    stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error('shutdown failed', { err });
        process.exit(1);
      },
    );
  };
  let closeServer: (() => Promise<void>) | undefined;
  let opened = false;
  // The client closing our stdin is how a stdio session ends.
  // Before the first message, the opening code below handles the end itself (and reports a bad start).
  process.stdin.once('end', () => {
    if (opened) shutdown('stdin closed');
  });
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));

  const first = await opening;
  opened = true;
  if (first && process.stdin.readableEnded) process.nextTick(() => shutdown('stdin closed'));
  if (!first) {
    // No message at all: still start (and stop), so a configuration mistake is reported as before.
    await boot();
    shutdown('stdin closed');
    return 'running';
  }
  const isDiscover = (first.first as { method?: unknown } | undefined)?.method === 'server/discover';
  if (first.era === 'legacy' || !isDiscover) await boot();

  if (first.era === 'legacy') {
    const s = session!;
    const [{ buildMcpServer }, { StdioServerTransport }] = await Promise.all([import('../mcp/server.js'), import('@modelcontextprotocol/sdk/server/stdio.js')]);
    const server = buildMcpServer({ ...s.deps, cancelOnAbort: true });
    closeServer = () => server.close();
    await server.connect(new StdioServerTransport(first.input, process.stdout));
  } else {
    const handle = serveStdio(
      () =>
        buildModernMcpServer(log, async () => {
          try {
            return (await boot()).deps;
          } catch (err) {
            // A configuration mistake found only now (--tools, MCP_API_KEY): say it and stop, as at start.
            process.stderr.write(`${(err as Error).message}\n`);
            process.exit(2);
          }
        }),
      { legacy: 'reject', transport: new ModernStdioTransport(first.input, process.stdout), onerror: (err) => log.debug('mcp protocol error', { err }) },
    );
    closeServer = () => handle.close();
  }
  log.info('mcp stdio server ready', { era: first.era, booted: session !== undefined });
  return 'running';
}

interface StdioSession {
  deps: Omit<McpServerDeps, 'cancelOnAbort' | 'inFlight'>;
  close(): Promise<void>;
}

/** The engine, workers, lead service and file server of one stdio session. */
async function startSession(baseConfig: Config, toolsArg: string[] | undefined, log: Logger): Promise<StdioSession> {
  // Imported here, not at the top: a server/discover probe never needs them.
  const [{ buildFrontDoors }, { createRuntime }, { artifactStoreService }, { resolveSecret }, { startStdioFileServer }] = await Promise.all([
    import('../server/front-doors.js'),
    import('../runtime.js'),
    import('../artifacts/service.js'),
    import('../auth/secret.js'),
    import('./stdio-files.js'),
  ]);
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
  const doors = await buildFrontDoors(config, log);
  const rt: Runtime = await createRuntime(doors.config, { log, workers: true });
  runtimeReady(rt);
  const close = async () => {
    await rt.close();
    await doors.close();
    await files?.close();
  };
  try {
    const registry = rt.registry.subset(resolveNames(rt, toolsArg ?? config.mcp.tools));
    const caller = await resolveCaller(rt, config.mcp.apiKey);
    log.info('mcp stdio session started', {
      tools: registry.names.length,
      store: rt.store.dialect,
      data_dir: rt.config.dataDir,
      charged: caller.chargeKeyId !== undefined,
    });
    return { deps: { engine: rt.engine, registry, config: rt.config, log, caller, artifacts: () => rt.scope.use(artifactStoreService) }, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** A function run at most once, remembering its promise. */
function once<T>(fn: () => Promise<T>): (() => Promise<T>) & { started(): boolean } {
  let p: Promise<T> | undefined;
  return Object.assign(() => (p ??= fn()), { started: () => p !== undefined });
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
  const { findApiKey } = await import('../billing/api-keys.js');
  const key = await findApiKey(rt.store, apiKey);
  if (!key)
    throw new CliUsageError(
      `MCP_API_KEY is not a key of this service (data dir ${rt.config.dataDir}). Create one with: agent-utility keys create --credits <usd>`,
    );
  if (key.revokedAt !== null) throw new CliUsageError('MCP_API_KEY was revoked; create a new key.');
  return keyCaller(key.id);
}
