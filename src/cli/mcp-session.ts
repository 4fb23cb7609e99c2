// The engine side of one `agent-utility mcp` session: store, engine and workers, a loopback /files server
// for artifact links, and the lead service for the homeservices tools. Only what every call needs starts
// here; the lead service starts on the first homeservices call, and each tool's data sets (gazetteer, IP
// databases, Chromium) load on the first call that needs them (the tools reach them through lazy modules).
// Nothing here imports the HTTP front doors (Express, x402, A2A, the console): a desktop client starts this
// process with every session and waits for it.
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { McpServerDeps } from '../mcp/server.js';
import { resolveToolNames } from '../registry/tool-names.js';
import { defineService } from '../registry/services.js';
import type { Runtime } from '../runtime.js';
import { keyCaller, localCaller, type Caller } from '../web/caller.js';
import { CliUsageError } from './usage.js';

export interface StdioSession {
  deps: Omit<McpServerDeps, 'cancelOnAbort' | 'inFlight'>;
  close(): Promise<void>;
}

export async function startStdioSession(baseConfig: Config, toolsArg: string[] | undefined, log: Logger): Promise<StdioSession> {
  const [{ createRuntime }, { artifactStoreService }, { resolveSecret }, { startStdioFileServer }, { leadsClientService }] = await Promise.all([
    import('../runtime.js'),
    import('../artifacts/service.js'),
    import('../auth/secret.js'),
    import('./stdio-files.js'),
    import('../leads/client.js'),
  ]);
  // Desktop clients start servers from an arbitrary working directory: keep data in a fixed place.
  const stdioConfig: Config = { ...baseConfig, dataDir: baseConfig.mcp.stdioDataDir };
  // Screenshot and PDF links must work for this session: serve /files here unless PUBLIC_URL names a
  // service that does. The store is the runtime's, created below; nothing asks for a file before then.
  let runtimeReady!: (rt: Runtime) => void;
  const ready = new Promise<Runtime>((resolve) => (runtimeReady = resolve));
  const files = stdioConfig.publicUrlExplicit
    ? undefined
    : await startStdioFileServer(
        async () => (await ready).scope.use(artifactStoreService),
        () => resolveSecret(stdioConfig),
      );
  const config: Config = files ? { ...stdioConfig, publicUrl: files.url, sessionFileServer: true } : stdioConfig;
  const rt: Runtime = await createRuntime(config, { log, workers: true, ownTasks: true });
  runtimeReady(rt);
  // Without LEADS_BASE_URL the lead service runs in this process, started by the first homeservices call
  // on an ephemeral port (so a desktop session never collides with a `serve` on the same machine).
  if (!config.leads.baseUrl) rt.scope.substitute(leadsClientService, onDemandLeadService(config, log));
  const close = async () => {
    await rt.close();
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

/** The lead-service client, starting the lead service in this process on first use (closed with the scope). */
function onDemandLeadService(config: Config, log: Logger) {
  let stop: (() => Promise<void>) | undefined;
  return defineService({
    name: 'leads-client',
    async create() {
      const [{ startLeadsService }, { LeadsClient }] = await Promise.all([import('../leads/service.js'), import('../leads/client.js')]);
      const leads = await startLeadsService({ config, log, port: 0 });
      stop = () => leads.close();
      return new LeadsClient(leads.url, leads.internalApiKey);
    },
    dispose: () => stop?.(),
  });
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
