// The one mapping from our errors to MCP. A call the model can correct or explain (bad input, a blocked
// target, too few credits, a rate limit) is a tool result with isError, so the model reads the sentence
// and can act on it; where the protocol needs a JSON-RPC error (task creation, unknown tool) the same
// sentence becomes one. Anything else is a real fault: logged in full, answered without its details.
//
// The SDK's McpError puts "MCP error <code>: " into its message, and that message is what goes over the
// wire, so a client that adds the prefix itself prints it twice. rpcError keeps the sentence as it is.
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { errorResult } from './error-result.js';

/** A JSON-RPC error whose message is our sentence alone (still an McpError for the SDK's checks). */
export function rpcError(code: number, sentence: string, data?: unknown): McpError {
  const err = new McpError(code, sentence, data);
  err.message = sentence;
  return err;
}

function internal(err: unknown, log: Logger): McpError {
  log.error('mcp request failed', { err });
  return rpcError(ErrorCode.InternalError, 'Internal server error; it was logged. Retry later.');
}

/** An AppError as an isError tool result; a real fault becomes a generic JSON-RPC error (thrown). */
export function appErrorResult(err: unknown, log: Logger): CallToolResult {
  if (err instanceof AppError) return errorResult(err.message);
  throw internal(err, log);
}

/** An error as a JSON-RPC error: input problems are InvalidParams, other refusals InvalidRequest. */
export function toMcpError(err: unknown, log: Logger): McpError {
  // The SDK's own errors arrive with the prefix already in their message: take it out.
  if (err instanceof McpError) return err.message.startsWith('MCP error ') ? rpcError(err.code, err.message.replace(/^MCP error -?\d+: /, ''), err.data) : err;
  if (!(err instanceof AppError)) return internal(err, log);
  const code = err.status === 400 || err.status === 404 || err.status === 422 ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
  return rpcError(code, err.message, { code: err.code, status: err.status, ...(err.field !== undefined ? { field: err.field } : {}) });
}
