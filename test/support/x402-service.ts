// The task service with x402 on, against a local chain (test/support/local-chain.ts): the same wiring
// as `serve` (x402HttpOptions), with the test tools and timings a test can shorten.
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { startX402, type X402Options, type X402Payments } from '../../src/billing/x402/payments.js';
import { TaskMetrics } from '../../src/engine/metrics.js';
import { startHttpServer, type RunningServer } from '../../src/http/server.js';
import { x402HttpOptions } from '../../src/server/x402-door.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import type { AnyTool } from '../../src/registry/define-tool.js';
import { onFreePort } from './free-port.js';
import { SETTLER_KEY, type LocalChain } from './local-chain.js';
import { testTools } from './test-tools.js';
import { testConfig } from './tool-context.js';

export interface X402TestService {
  url: string;
  rt: Runtime;
  server: RunningServer;
  x402: X402Payments;
  payTo: Address;
  close(): Promise<void>;
}

export interface X402ServiceOptions {
  env?: Record<string, string>;
  x402?: X402Options;
  tools?: AnyTool[];
  /** false: an API node only (`serve --no-workers`); tasks are run by a worker elsewhere. */
  workers?: boolean;
}

export async function startX402Service(chain: LocalChain, opts: X402ServiceOptions = {}): Promise<X402TestService> {
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  return onFreePort((port) => start(port, payTo, chain, opts));
}

async function start(port: number, payTo: Address, chain: LocalChain, opts: X402ServiceOptions): Promise<X402TestService> {
  const config = testConfig({
    PORT: String(port),
    POLL_INTERVAL_MS: '50',
    LEASE_MS: '3000',
    RATE_LIMIT_PER_IP: '0',
    X402_PAY_TO: payTo,
    X402_RPC_URL: chain.rpcUrl,
    X402_SETTLER_KEY: SETTLER_KEY,
    ...opts.env,
  });
  const rt = await createRuntime(config, { tools: opts.tools ?? testTools, ...(opts.workers !== undefined ? { workers: opts.workers } : {}) });
  const x402 = await startX402(rt, { pollingIntervalMs: 50, ...opts.x402 });
  if (!x402) throw new Error('x402 did not start');
  const metrics = new TaskMetrics(rt.engine.events);
  let server: RunningServer;
  try {
    server = await startHttpServer(rt, { ...x402HttpOptions(x402, rt, metrics), metrics, port });
  } catch (err) {
    await x402.close();
    await rt.close();
    throw err;
  }
  return {
    url: server.url,
    rt,
    server,
    x402,
    payTo,
    async close() {
      await server.close();
      await x402.close();
      await rt.close();
    },
  };
}
