#!/usr/bin/env node
// The `agent-utility` command. Human-facing output goes to stdout only where it is the command's
// result (a new key, a listing); logs always go to stderr.
import module from 'node:module';
import type { Config } from './config.js';
import type { StdioOpening } from './cli/mcp-opening.js';
import { createLogger } from './logger.js';
import { CliFailure, CliUsageError } from './cli/usage.js';
import { disableProtoAccessor, servesCallers } from './cli/prototype-guard.js';
import { VERSION } from './version.js';

// Node 22+ keeps compiled code between runs (absent on Node 20): start-up is mostly compiling modules, and
// a worker's start-up is the time before it drains anything.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const HELP = `agent-utility ${VERSION}: utility tools for AI agents

Usage:
  agent-utility serve [--no-workers] [--port N] [--host H]   task service (REST /v1, MCP /mcp, A2A /a2a) + lead service
  agent-utility worker [--tools a,b]                          workers only (scale-out)
  agent-utility mcp [--tools a,b]                             MCP over stdio (Claude Desktop / Code)
  agent-utility keys create --credits <usd> [--label <text>] [--json]
  agent-utility keys list [--json]
  agent-utility keys credit <key-or-id> <usd> [--json]
  agent-utility keys revoke <key-or-id> [--json]
  agent-utility admin login                                   one-time sign-in link for the console (/console)
  agent-utility leads serve [--port N]                        lead service alone
  agent-utility leads import <file.csv|file.json> [--dry-run] [--replace]
  agent-utility call <tool> [--field value …] [--json '{…}'] [--out file]   run one task, print its result
  agent-utility batch <tool> <input.csv|input.jsonl> [--out results.csv|results.jsonl]   run a batch
  agent-utility crawl <url> [--limit N] [--depth N] [--render] [--out pages.jsonl]   crawl a site, pages as JSONL
  agent-utility version

Configuration is read from environment variables; see README.md.`;

type Command = (config: Config, args: string[], opening?: StdioOpening) => Promise<number | 'running'>;

const commands: Record<string, Command> = {
  // Each command imports only what it needs: `keys list` should not load Chromium drivers, viem or the MCP SDK.
  serve: async (config, args) => (await import('./cli/serve.js')).runServe(config, args),
  worker: async (config, args) => (await import('./cli/worker.js')).runWorker(config, args),
  keys: async (config, args) => (await import('./cli/keys.js')).runKeysCommand(config, args),
  leads: async (config, args) => {
    const { runLeadsCommand } = await import('./cli/leads.js');
    return runLeadsCommand(config, args);
  },
  admin: async (config, args) => (await import('./cli/admin.js')).runAdminCommand(config, args),
  call: async (config, args) => (await import('./cli/call.js')).runCall(config, args),
  batch: async (config, args) => (await import('./cli/batch.js')).runBatch(config, args),
  crawl: async (config, args) => (await import('./cli/crawl.js')).runCrawl(config, args),
  // Imported lazily: only the stdio MCP server needs its transport.
  mcp: async (config, args, opening) => (await import('./cli/mcp.js')).runMcpStdio(config, args, opening),
};

async function main(argv: string[]): Promise<number | 'running'> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(`${HELP}\n`);
    return command ? 0 : 2;
  }
  if (command === 'version' || command === '--version') {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const run = commands[command];
  if (!run) {
    process.stderr.write(`Unknown command "${command}".\n\n${HELP}\n`);
    return 2;
  }
  if (servesCallers(command, rest)) disableProtoAccessor();
  // stdio MCP reads its first message (and answers a 2025-era initialize) before the configuration and its
  // zod schemas load; a configuration mistake is then reported just after that answer.
  const opening = command === 'mcp' ? await (await import('./cli/mcp-opening.js')).openStdio(process.stdin, process.stdout) : undefined;
  const { ConfigError, loadConfig } = await import('./config.js');
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 2;
    }
    throw err;
  }
  return run(config, rest, opening);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 'running') process.exitCode = code;
  },
  (err: unknown) => {
    const log = createLogger('error');
    if (err instanceof CliUsageError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (err instanceof CliFailure) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = 1;
      return;
    }
    log.error('command failed', { err });
    process.exitCode = 1;
  },
);
