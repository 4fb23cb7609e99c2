// stdio answers a 2025-era `initialize` the moment it arrives, before the SDK, zod and the configuration
// load (together most of a cold start: a desktop client waits on this answer at every launch). The answer is
// what the SDK server would give (server-identity.ts holds the values both use); the request is still
// replayed into the SDK server, which records the client's capabilities, and its own answer to that id is
// dropped (GatedTransport). Anything that is not a plain, well-formed initialize is left to the SDK.
import { INSTRUCTIONS } from './instructions.js';
import { LEGACY_CAPABILITIES, SERVER_INFO } from './server-identity.js';

/**
 * The 1.x SDK's SUPPORTED_PROTOCOL_VERSIONS, latest first, written out: importing them would load the SDK's
 * zod schemas (a unit test keeps the two equal).
 */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

export interface EarlyAnswer {
  id: string | number;
  /** The JSON-RPC response line, newline included. */
  line: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The answer to `message` when it is an initialize request the SDK would accept; otherwise undefined. */
export function earlyInitializeAnswer(message: unknown): EarlyAnswer | undefined {
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize') return undefined;
  const { id, params } = message;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return undefined;
  if (!isObject(params) || typeof params.protocolVersion !== 'string' || !isObject(params.capabilities)) return undefined;
  const client = params.clientInfo;
  if (!isObject(client) || typeof client.name !== 'string' || typeof client.version !== 'string') return undefined;
  const protocolVersion = SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion) ? params.protocolVersion : SUPPORTED_PROTOCOL_VERSIONS[0]!;
  const result = { protocolVersion, capabilities: LEGACY_CAPABILITIES, serverInfo: SERVER_INFO, instructions: INSTRUCTIONS };
  return { id, line: `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n` };
}
