// buildMcpServer: one MCP server over the task engine, for one caller. It only translates: tools/list
// comes from the registry, every tools/call is an engine task (billed and recorded like REST), the MCP
// tasks API reads the same tasks, and artifacts are resources. The stdio door builds one for the whole
// session; the HTTP door builds a fresh one per request (stateless).
//
// It uses the SDK's low-level Server rather than McpServer.registerTool: our tools are defined once as JSON
// Schema by the registry (the same schemas REST and OpenAPI publish), and each call must wait on the
// engine's settle event instead of McpServer's fixed-interval task polling.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CancelledNotificationSchema,
  ErrorCode,
  GetTaskPayloadRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  RELATED_TASK_META_KEY,
  type CallToolRequest,
  type CallToolResult,
  type CreateTaskResult,
  type Request,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { Config } from '../config.js';
import type { Engine } from '../engine/engine.js';
import { isTerminal } from '../engine/task-view.js';
import type { Logger } from '../logger.js';
import type { ToolRegistry } from '../registry/registry.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';
import { artifactVerifier, listArtifactResources } from './artifacts.js';
import { readResource, RESOURCE_TEMPLATES } from './resources.js';
import { registerAssistHandlers } from './assist-handlers.js';
import { toCallToolResult, type CallResultDeps } from './call-result.js';
import { callerKey, ownsTask, submitOptions, type Caller } from '../web/caller.js';
import { webhookBesideCall } from '../webhooks/beside-call.js';
import { rpcError, toMcpError } from './errors.js';
import type { InFlightCalls } from './in-flight.js';
import { logLevels } from './task-log.js';
import { EngineTaskStore, LateTaskStore } from './task-store.js';
import { setInitializeHandler, setToolCallHandler, type ToolCallExtra } from './tool-call-request.js';
import { callAndWait, waitUntilSettled, type CallDeps } from './call-and-wait.js';
import { definitionsFor } from './tool-definitions.js';
import { INSTRUCTIONS } from './instructions.js';
import { LEGACY_CAPABILITIES, SERVER_INFO } from './server-identity.js';

export interface McpServerDeps {
  engine: Engine;
  /** The tools to expose (already narrowed by the operator's allowlist). */
  registry: ToolRegistry;
  config: Config;
  log: Logger;
  caller: Caller;
  artifacts: () => Promise<ArtifactStore>;
  /**
   * stdio: a request aborted by the client (notifications/cancelled, or the client going away) cancels its
   * task. Streamable HTTP: a dropped connection is not a cancellation (the spec says so), so this is false
   * there and cancellation arrives through `inFlight` instead.
   */
  cancelOnAbort: boolean;
  /** Streamable HTTP (stateless): the process-wide index a cancel notification looks calls up in. */
  inFlight?: InFlightCalls;
}

// One JSON Schema validator for every server instance: building an Ajv per (stateless) request would cost
// more than the rest of the request. The SDK uses it only to check elicitation answers.
let sharedValidator: AjvJsonSchemaValidator | undefined;

export function buildMcpServer(d: McpServerDeps): Server {
  const shell = mcpServerShell(d.log);
  shell.install(d);
  return shell.server;
}

export interface McpServerShell {
  /** Answers initialize (and ping) from its static capabilities; everything else once installed. */
  server: Server;
  /** Adds the handlers that need the engine. */
  install(d: McpServerDeps): void;
}

/**
 * The server before its engine exists: stdio connects this at once, so `initialize` is answered while the
 * engine boots, and installs the handlers when it is ready (GatedTransport holds other requests until then).
 */
export function mcpServerShell(baseLog: Logger): McpServerShell {
  const taskStore = new LateTaskStore();
  const server = new Server(
    { ...SERVER_INFO },
    {
      capabilities: LEGACY_CAPABILITIES,
      instructions: INSTRUCTIONS,
      taskStore,
      jsonSchemaValidator: (sharedValidator ??= new AjvJsonSchemaValidator()),
    },
  );
  server.onerror = (err) => baseLog.debug('mcp protocol error', { err });
  // In the shell, not with the other handlers: stdio answers initialize before the engine is installed.
  setInitializeHandler(server);
  return { server, install: (d) => installHandlers(server, taskStore, d) };
}

function installHandlers(server: Server, lateTaskStore: LateTaskStore, d: McpServerDeps): void {
  const { engine, config, caller } = d;
  const { tools, index } = definitionsFor(d.registry);
  const resultDeps: CallResultDeps = {
    registry: engine.registry,
    artifacts: d.artifacts,
    verifyArtifact: artifactVerifier(config),
    inlineImageMaxBytes: config.mcp.inlineImageMaxBytes,
    log: d.log,
  };
  const log = d.log.child({ component: 'mcp', caller: callerKey(caller) });
  const who = callerKey(caller);
  const callDeps: CallDeps = { engine, caller, log, resultDeps, cancelOnAbort: d.cancelOnAbort, ...(d.inFlight ? { inFlight: d.inFlight } : {}) };

  const toolFor = (mcpName: string): string => {
    const spec = index.get(mcpName);
    if (!spec) throw rpcError(ErrorCode.InvalidParams, `Unknown tool "${mcpName}". Available tools: ${[...index.keys()].join(', ')}.`);
    return spec;
  };

  const taskStore = new EngineTaskStore({
    engine,
    config,
    caller,
    log,
    resultOf: (task) => toCallToolResult(task, resultDeps),
    async createForCall(request: Request) {
      if (request.method !== 'tools/call') throw rpcError(ErrorCode.InvalidRequest, `Only tools/call can run as a task (got ${request.method}).`);
      const params = (request.params ?? {}) as { name?: unknown; arguments?: unknown; _meta?: unknown };
      const spec = toolFor(String(params.name));
      try {
        const input = await engine.validate(spec, params.arguments ?? {}, { chargeKeyId: submitOptions(caller).chargeKeyId });
        const webhook = await webhookBesideCall([params._meta], spec, caller.chargeKeyId, engine);
        return (await engine.submitValidated(spec, input, { ...submitOptions(caller), ...(webhook ? { webhook } : {}) })).task;
      } catch (err) {
        throw toMcpError(err, log);
      }
    },
  });
  lateTaskStore.target = taskStore;
  server.onerror = (err) => log.debug('mcp protocol error', { err });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));

  /** Real faults in a handler are logged and answered generically; McpErrors pass as they are. */
  const guard =
    <A extends unknown[], R>(handler: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await handler(...args);
      } catch (err) {
        throw toMcpError(err, log);
      }
    };

  setToolCallHandler(
    server,
    guard(async (request: CallToolRequest, extra: ToolCallExtra): Promise<CallToolResult | CreateTaskResult> => {
      const spec = toolFor(request.params.name);
      if (request.params.task) {
        return { task: await taskStore.createTask(request.params.task, extra.requestId, request) };
      }
      return callAndWait(callDeps, spec, request.params.arguments, {
        meta: request.params._meta,
        requestId: extra.requestId,
        signal: extra.signal,
        progressToken: request.params._meta?.progressToken,
        notify: (n) => extra.sendNotification(n as ServerNotification),
        wantsLog: (level) => logLevels.wants(who, level),
      });
    }),
  );

  // Blocks until the task settles, on the engine's settle event rather than the SDK's polling loop.
  server.setRequestHandler(
    GetTaskPayloadRequestSchema,
    guard(async (request, extra) => {
      const { taskId } = request.params;
      const task = await engine.get(taskId);
      if (!task || !ownsTask(caller, task)) throw rpcError(ErrorCode.InvalidParams, `Task not found: ${taskId}`);
      const settled = await waitUntilSettled(engine, taskId, extra.signal);
      if (!isTerminal(settled.status)) throw rpcError(ErrorCode.InvalidRequest, 'Request cancelled before the task finished.');
      const result = await toCallToolResult(settled, resultDeps);
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
    }),
  );

  server.setRequestHandler(
    ListResourcesRequestSchema,
    guard(async () => ({ resources: await listArtifactResources({ engine, caller, config }) })),
  );
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(
    ReadResourceRequestSchema,
    guard((request) => readResource(request.params.uri, { engine, caller, config, artifacts: d.artifacts })),
  );
  registerAssistHandlers(server, { engine, registry: d.registry, caller, logLevels });

  if (d.inFlight) {
    const inFlight = d.inFlight;
    // Replaces the SDK's handler, which can only abort requests this very server instance is handling.
    server.setNotificationHandler(CancelledNotificationSchema, async (notification) => {
      const requestId = notification.params.requestId;
      const taskId = requestId === undefined ? undefined : inFlight.taskFor(callerKey(caller), requestId);
      if (taskId) await engine.cancel(taskId);
    });
  }
}
