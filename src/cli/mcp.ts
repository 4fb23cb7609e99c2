// `agent-utility mcp`: MCP over stdio for desktop and CLI agents (Claude Desktop, Claude Code, VS Code,
// Cursor). The engine and its workers run in this process on the embedded SQLite, so nothing else has to
// be running. stdout carries only protocol messages; logs go to stderr. Calls are recorded under the local
// principal and are free, unless MCP_API_KEY is set: then each call is charged to that key like REST.
import { parseArgs } from 'node:util';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { startStdioSession } from './mcp-session.js';
import type { StdioOpening } from './mcp-opening.js';
import { CliUsageError } from './usage.js';

/** `first`: the opening cli.ts read from stdin before the configuration loaded (mcp-opening.ts). */
export async function runMcpStdio(baseConfig: Config, args: string[], first: StdioOpening | undefined): Promise<'running'> {
  const { values } = parseArgs({ args, options: { tools: { type: 'string' } } });
  const toolsArg = values.tools
    ?.split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const log = createLogger(baseConfig.logLevel).child({ door: 'mcp-stdio' });
  // The first message picks the era. A v2 client in auto mode probes with server/discover on a throwaway
  // process before it starts the real one, so a discover opening is answered before the engine boots: the
  // probe then costs a Node start, not a full service start (and never touches the data directory).
  const boot = once(() => startStdioSession(baseConfig, toolsArg, log));

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
  // The client closing our stdin is how a stdio session ends (it may have ended while the configuration
  // loaded, after the opening was read).
  process.stdin.once('end', () => {
    if (first) shutdown('stdin closed');
  });
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  if (first && process.stdin.readableEnded) process.nextTick(() => shutdown('stdin closed'));
  if (!first) {
    // No message at all: still start (and stop), so a configuration mistake is reported as before.
    await boot();
    shutdown('stdin closed');
    return 'running';
  }
  // The engine boots in the background: the handshake is answered from the server's static capabilities,
  // and requests that need the engine wait for it (a discover probe never starts it).
  const isDiscover = (first.first as { method?: unknown } | undefined)?.method === 'server/discover';
  const sessionDeps = async () => {
    try {
      return (await boot()).deps;
    } catch (err) {
      // A configuration mistake (--tools, MCP_API_KEY): say it and stop, as a failed start would.
      if (err instanceof CliUsageError) process.stderr.write(`${err.message}\n`);
      else log.error('mcp stdio session could not start', { err });
      process.exit(err instanceof CliUsageError ? 2 : 1);
    }
  };

  if (first.era === 'legacy') {
    const [{ mcpServerShell }, { StdioServerTransport }, { GatedTransport }] = await Promise.all([
      import('../mcp/server.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
      import('../mcp/gated-transport.js'),
    ]);
    const shell = mcpServerShell(log);
    const transport = new GatedTransport(new StdioServerTransport(first.input, process.stdout), first.answered);
    closeServer = () => shell.server.close();
    // The engine starts once the handshake is answered (initialized), or when a request needs it first.
    let starting = false;
    const start = () => {
      if (starting) return;
      starting = true;
      sessionDeps().then(
        (deps) => {
          shell.install({ ...deps, cancelOnAbort: true });
          transport.open();
        },
        () => undefined,
      );
    };
    shell.server.oninitialized = start;
    transport.onhold = start;
    await shell.server.connect(transport);
  } else {
    if (!isDiscover) sessionDeps().catch(() => undefined);
    const [{ buildModernMcpServer }, { serveStdio, StdioServerTransport: ModernStdioTransport }] = await Promise.all([
      import('../mcp/modern-server.js'),
      import('@modelcontextprotocol/server/stdio'),
    ]);
    const handle = serveStdio(() => buildModernMcpServer(log, sessionDeps), {
      legacy: 'reject',
      transport: new ModernStdioTransport(first.input, process.stdout),
      onerror: (err) => log.debug('mcp protocol error', { err }),
    });
    closeServer = () => handle.close();
  }
  log.info('mcp stdio server ready', { era: first.era });
  return 'running';
}

/** A function run at most once, remembering its promise. */
function once<T>(fn: () => Promise<T>): (() => Promise<T>) & { started(): boolean } {
  let p: Promise<T> | undefined;
  return Object.assign(() => (p ??= fn()), { started: () => p !== undefined });
}
