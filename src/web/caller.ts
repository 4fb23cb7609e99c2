// Who is calling, as the MCP and A2A front doors see it: the payer every task is recorded under (and that the
// caller's tasks are bound to), and whether calls are charged to an API key or free (local use).
import type { SubmitOptions } from '../engine/engine.js';
import type { Payer, TaskRow } from '../store/port.js';

export interface Caller {
  payer: Payer;
  /** Charge each call's price to this API key, in the transaction that creates the task. */
  chargeKeyId?: string;
}

/** stdio without MCP_API_KEY, or HTTP with MCP auth turned off: recorded, not charged. */
export function localCaller(name: string): Caller {
  return { payer: { kind: 'local', id: name } };
}

export function keyCaller(keyId: string): Caller {
  return { payer: { kind: 'key', id: keyId }, chargeKeyId: keyId };
}

export function submitOptions(caller: Caller): SubmitOptions {
  return caller.chargeKeyId ? { payer: caller.payer, chargeKeyId: caller.chargeKeyId } : { payer: caller.payer, free: true };
}

/** A stable string for the caller, e.g. "key:key_abc123" or "local:stdio". */
export function callerKey(caller: Caller): string {
  return `${caller.payer.kind}:${caller.payer.id ?? ''}`;
}

export function ownsTask(caller: Caller, task: TaskRow): boolean {
  return task.payer.kind === caller.payer.kind && task.payer.id === caller.payer.id;
}
