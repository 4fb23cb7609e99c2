// Guarded HTTP for tools: undici agents whose every connection goes through the network guard and is pinned
// to the address it checked. The shared agent pools connections for tools that just fetch data; createAgent
// and createConnector give private ones with hooks, for tools that observe the connection itself
// (url.status builds one undici Client per hop on createConnector).
import fs from 'node:fs';
import tls from 'node:tls';
import { Agent, type buildConnector } from 'undici';
import { defineService } from '../registry/services.js';
import { createGuardedConnector, type ConnectionAttempt } from './guarded-connector.js';
import { netGuardService, type NetGuard } from './guard.js';
import type { AbortLike } from './deadline.js';

export interface ConnectorOptions {
  /** Aborts connections in progress. */
  signal?: AbortLike | undefined;
  connectTimeoutMs?: number;
  /** Sees each connection attempt (live object: timings, pinned address, certificate, error). */
  onAttempt?(attempt: ConnectionAttempt): void;
}

export interface CreateAgentOptions extends ConnectorOptions {
  /** Passed through to undici's Agent (timeouts, pipelining, connections…). */
  agentOptions?: Omit<Agent.Options, 'connect'>;
}

export interface HttpClient {
  readonly guard: NetGuard;
  /** Trusted CA certificates for outbound TLS; undefined means Node's defaults. */
  readonly ca: string[] | undefined;
  /** Shared, pooled, guarded agent that rejects invalid certificates: pass as `dispatcher` to undici. */
  readonly agent: Agent;
  /** A private guarded agent; the caller closes or destroys it. */
  createAgent(opts?: CreateAgentOptions): Agent;
  /** A guarded connector for an undici Client or Agent of the caller's own. */
  createConnector(opts?: ConnectorOptions): buildConnector.connector;
}

export function createHttpClient(guard: NetGuard, ca: string[] | undefined): HttpClient {
  const createConnector = (opts: ConnectorOptions = {}): buildConnector.connector =>
    createGuardedConnector({
      guard,
      ca,
      signal: opts.signal,
      ...(opts.connectTimeoutMs !== undefined ? { connectTimeoutMs: opts.connectTimeoutMs } : {}),
      ...(opts.onAttempt ? { onAttempt: opts.onAttempt } : {}),
    });
  const createAgent = ({ agentOptions, ...connectorOptions }: CreateAgentOptions = {}): Agent =>
    new Agent({ ...agentOptions, connect: createConnector(connectorOptions) });
  return { guard, ca, agent: createAgent(), createAgent, createConnector };
}

/**
 * Node's bundled roots plus the certificates in TLS_CA_FILE (a private CA, or a test CA). Undefined when
 * no file is configured, so Node's defaults (including NODE_EXTRA_CA_CERTS) apply unchanged.
 */
export function loadTrustedCas(caFile: string | undefined): string[] | undefined {
  if (!caFile) return undefined;
  let pem: string;
  try {
    pem = fs.readFileSync(caFile, 'utf8');
  } catch (err) {
    throw new Error(`TLS_CA_FILE ${caFile} could not be read: ${(err as Error).message}`);
  }
  const certs = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g);
  if (!certs) throw new Error(`TLS_CA_FILE ${caFile} contains no PEM certificate`);
  return [...tls.rootCertificates, ...certs];
}

export const httpClientService = defineService({
  name: 'http-client',
  async create({ config, use }) {
    const guard = await use(netGuardService);
    return createHttpClient(guard, loadTrustedCas(config.net.tlsCaFile));
  },
  dispose: (client) => client.agent.destroy(),
});
