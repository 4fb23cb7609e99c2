// Plain tools/call requests waiting for their task, by caller and JSON-RPC request id. Over stateless HTTP
// each POST gets a fresh MCP server, so the notifications/cancelled for a call arrives at a server that
// never saw the call; this shared index lets it find the task to cancel. One per process (the HTTP door).
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

export class InFlightCalls {
  private readonly calls = new Map<string, string>();

  /** Records the call; the returned function removes it again. */
  add(callerKey: string, requestId: RequestId, taskId: string): () => void {
    const key = this.key(callerKey, requestId);
    this.calls.set(key, taskId);
    return () => {
      if (this.calls.get(key) === taskId) this.calls.delete(key);
    };
  }

  taskFor(callerKey: string, requestId: RequestId): string | undefined {
    return this.calls.get(this.key(callerKey, requestId));
  }

  get size(): number {
    return this.calls.size;
  }

  private key(callerKey: string, requestId: RequestId): string {
    return `${callerKey}\u0000${typeof requestId}:${String(requestId)}`;
  }
}
