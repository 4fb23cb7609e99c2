// The one mapping from our errors to MCP. A call the model can correct or explain (bad input, a blocked
// target, too few credits, a rate limit) is a tool result with isError, so the model reads the sentence
// and can act on it; where the protocol needs a JSON-RPC error (task creation, unknown tool) the same
// sentence becomes one. Anything else is a real fault: logged in full, answered without its details.
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { errorResult } from './call-result.js';

export function describeAppError(err: AppError): string {
  return err.status === 400 ? `Invalid input: ${err.message}` : err.message;
}

function internal(err: unknown, log: Logger): McpError {
  log.error('mcp request failed', { err });
  return new McpError(ErrorCode.InternalError, 'Internal server error; it was logged. Retry later.');
}

/** An AppError as an isError tool result; a real fault becomes a generic JSON-RPC error (thrown). */
export function appErrorResult(err: unknown, log: Logger): CallToolResult {
  if (err instanceof AppError) return errorResult(describeAppError(err));
  throw internal(err, log);
}

/** An error as a JSON-RPC error: input problems are InvalidParams, other refusals InvalidRequest. */
export function toMcpError(err: unknown, log: Logger): McpError {
  if (err instanceof McpError) return err;
  if (!(err instanceof AppError)) return internal(err, log);
  const code = err.status === 400 || err.status === 404 || err.status === 422 ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
  return new McpError(code, describeAppError(err), { code: err.code, status: err.status, ...(err.field !== undefined ? { field: err.field } : {}) });
}
