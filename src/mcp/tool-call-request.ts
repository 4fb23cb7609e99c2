// tools/call requests are checked here, not by the SDK. The SDK answers a malformed one (arguments that
// are not an object, no tool name) with -32603 and zod's raw issue list; we answer InvalidParams (-32602)
// with one sentence naming the field, in the same wording as every other input error.
//
// So the handler is registered through Protocol.setRequestHandler with a schema that only matches the
// method: Server.setRequestHandler would parse tools/call with the SDK schema before our handler runs (it
// also re-checks results, which our handler builds from the same SDK types).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  type CallToolRequest,
  type CallToolResult,
  type CreateTaskResult,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describeIssues, plainIssueMessage, reservedKeyError } from '../registry/input-errors.js';
import { reservedKeyPath } from '../registry/reserved-keys.js';
import { rpcError } from './errors.js';

const ANY_TOOL_CALL = z.looseObject({ method: z.literal('tools/call') });

export type ToolCallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;
export type ToolCallHandler = (request: CallToolRequest, extra: ToolCallExtra) => Promise<CallToolResult | CreateTaskResult>;

/** The request as the SDK types it, or InvalidParams with one sentence ("arguments: must be an object"). */
export function parseToolCall(request: unknown): CallToolRequest {
  // Before the SDK schema, which silently drops a "__proto__" argument: refused like on every door.
  const reserved = reservedKeyPath((request as { params?: { arguments?: unknown } } | null)?.params?.arguments);
  if (reserved !== undefined) throw rpcError(ErrorCode.InvalidParams, reservedKeyError(reserved).message, { field: reserved });
  const parsed = CallToolRequestSchema.safeParse(request, { error: plainIssueMessage });
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ ...i, path: i.path[0] === 'params' ? i.path.slice(1) : i.path }));
  const { field, sentence } = describeIssues(issues);
  throw rpcError(ErrorCode.InvalidParams, sentence, field !== undefined ? { field } : undefined);
}

/**
 * The first tools/call message of a JSON-RPC body (one message or a batch) whose arguments hold a reserved
 * key, as the JSON-RPC error to answer it with. The HTTP door checks the raw body with this before either
 * SDK parses it: their schemas drop a "__proto__" argument silently, so the handler would never see it.
 */
export function reservedArgumentError(body: unknown): Record<string, unknown> | undefined {
  for (const m of Array.isArray(body) ? body : [body]) {
    const msg = m as { id?: unknown; method?: unknown; params?: { arguments?: unknown } } | null;
    if (typeof msg !== 'object' || msg === null || msg.method !== 'tools/call') continue;
    const field = reservedKeyPath(msg.params?.arguments);
    if (field === undefined) continue;
    const { message } = reservedKeyError(field);
    return { jsonrpc: '2.0', id: msg.id ?? null, error: { code: ErrorCode.InvalidParams, message, data: { field, code: 'INVALID_INPUT', status: 400 } } };
  }
  return undefined;
}

export function setToolCallHandler(server: Server, handler: ToolCallHandler): void {
  const register = Protocol.prototype.setRequestHandler as (
    this: Server,
    schema: typeof ANY_TOOL_CALL,
    h: (request: unknown, extra: ToolCallExtra) => Promise<unknown>,
  ) => void;
  register.call(server, ANY_TOOL_CALL, (request, extra) => handler(parseToolCall(request), extra));
}
