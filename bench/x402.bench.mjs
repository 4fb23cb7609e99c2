// x402: how much an x402 payment adds to task acceptance (POST /v1/tools/{tool}/tasks → 202), against
// the API-key path on the same service in the same run. The x402 path decodes the payment, checks the
// EIP-712 signature of the EIP-3009 authorization, reads the payer's balance and the authorization
// state on chain (one Multicall3 call to a local Hardhat node over loopback) and reserves the nonce
// with the task. Signatures are made beforehand with the official client, one fresh one per request.
// The service runs without workers, so only acceptance is measured (settlement happens after a task
// completes and is not on this path).
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { x402Client, x402HTTPClient } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { verifyTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { fmt, percentile } from './lib/load.mjs';
import { cli, freePort, ROOT, startService, tempDir } from './lib/processes.mjs';

const { startLocalChain, SETTLER_KEY, BASE_USDC } = await import(path.join(ROOT, 'dist/test/support/local-chain.js'));
const { ChainAccess } = await import(path.join(ROOT, 'dist/src/billing/x402/chain.js'));
const { transferWithAuthorizationTypes } = await import(path.join(ROOT, 'dist/src/billing/x402/token-abi.js'));

const SEQUENTIAL = 200;
const WARMUP = 30;
const CONCURRENCY = 8;
const CONCURRENT = 600;
const TOOL = 'dns.lookup';
const BODY = JSON.stringify({ domain: 'bench.test', record_type: 'A' });

/** Sends `count` requests, `inFlight` at a time; `headersFor(i)` gives each one's headers. */
async function run(pool, count, inFlight, headersFor) {
  const latencies = [];
  let next = 0;
  let errors = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const i = next++;
        const start = performance.now();
        const res = await pool.request({
          method: 'POST',
          path: `/v1/tools/${TOOL}/tasks`,
          headers: { 'content-type': 'application/json', ...headersFor(i) },
          body: BODY,
        });
        await res.body.dump();
        latencies.push(performance.now() - start);
        if (res.statusCode !== 202) errors++;
      }
    }),
  );
  const elapsed = performance.now() - t0;
  latencies.sort((a, b) => a - b);
  return { rps: (count / elapsed) * 1000, p50: percentile(latencies, 50), p90: percentile(latencies, 90), p99: percentile(latencies, 99), errors };
}

export default {
  name: 'x402',
  title: 'x402: task acceptance with payment verification vs an API key',
  async run() {
    const chain = await startLocalChain();
    const cleanup = [() => chain.stop()];
    try {
      const port = await freePort();
      const payTo = privateKeyToAccount(generatePrivateKey()).address;
      const env = {
        DATA_DIR: tempDir(),
        PORT: String(port),
        RATE_LIMIT_PER_IP: '0',
        RATE_LIMIT_PER_KEY: '0',
        LEADS_PORT: '0',
        X402_PAY_TO: payTo,
        X402_RPC_URL: chain.rpcUrl,
        X402_SETTLER_KEY: SETTLER_KEY,
      };
      const key = cli(['keys', 'create', '--credits', '100000'], env);
      const api = await startService(['serve', '--no-workers'], env, `http://127.0.0.1:${port}/healthz`);
      cleanup.push(() => api.stop());
      const origin = `http://127.0.0.1:${port}`;

      // One wallet, funded for every request; one fresh signed authorization per request.
      const payer = privateKeyToAccount(generatePrivateKey());
      const client = new x402Client();
      registerExactEvmScheme(client, { signer: payer });
      const http = new x402HTTPClient(client);
      const unpaid = await fetch(`${origin}/v1/tools/${TOOL}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
      if (unpaid.status !== 402) throw new Error(`expected 402, got ${unpaid.status}`);
      const required = http.getPaymentRequiredResponse((n) => unpaid.headers.get(n), await unpaid.json());
      const total = 2 * (WARMUP + SEQUENTIAL) + CONCURRENT;
      // 100 USDC: more than 200 times the dearest tool, so the store read of the payer's unsettled tasks
      // (made only for wallets that could be short) is skipped, as for any reasonably funded agent.
      await chain.mint(payer.address, 100_000_000n);
      const signStart = performance.now();
      const payments = [];
      for (let i = 0; i < total; i++) payments.push(http.encodePaymentSignatureHeader(await client.createPaymentPayload(required)));
      const signMs = (performance.now() - signStart) / total;

      const pool = new Pool(origin, { connections: CONCURRENCY, pipelining: 1 });
      cleanup.push(() => pool.close());
      const keyHeaders = () => ({ authorization: `Bearer ${key}` });
      let used = 0;
      const payHeaders = () => payments[used++];

      await run(pool, WARMUP, 1, keyHeaders);
      await run(pool, WARMUP, 1, payHeaders);
      const keySeq = await run(pool, SEQUENTIAL, 1, keyHeaders);
      const paySeq = await run(pool, SEQUENTIAL, 1, payHeaders);
      const keyPar = await run(pool, CONCURRENT, CONCURRENCY, keyHeaders);
      const payPar = await run(pool, CONCURRENT, CONCURRENCY, payHeaders);

      // What the chain alone allows: the same balance + authorization-state call, straight to the node.
      const access = new ChainAccess({ rpcUrl: chain.rpcUrl, chainId: 8453, network: 'eip155:8453' });
      let calls = 0;
      const chainStart = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (calls++ < CONCURRENT) await access.payerState(BASE_USDC, payer.address, `0x${'1'.repeat(64)}`);
        }),
      );
      const chainRate = (CONCURRENT / (performance.now() - chainStart)) * 1000;

      // And what one signature check costs (ECDSA recovery in JavaScript, on the event loop).
      const sample = JSON.parse(Buffer.from(payments[0]['PAYMENT-SIGNATURE'], 'base64').toString('utf8'));
      const auth = sample.payload.authorization;
      const typed = {
        address: auth.from,
        domain: {
          name: required.accepts[0].extra.name,
          version: required.accepts[0].extra.version,
          chainId: 8453,
          verifyingContract: required.accepts[0].asset,
        },
        types: transferWithAuthorizationTypes,
        primaryType: 'TransferWithAuthorization',
        message: { ...auth, value: BigInt(auth.value), validAfter: BigInt(auth.validAfter), validBefore: BigInt(auth.validBefore) },
        signature: sample.payload.signature,
      };
      const verifyStart = performance.now();
      for (let i = 0; i < 200; i++) if (!(await verifyTypedData(typed))) throw new Error('sample signature did not verify');
      const verifyMs = (performance.now() - verifyStart) / 200;

      const row = (name, r) => `| ${name} | ${fmt(r.p50, 2)} | ${fmt(r.p90, 2)} | ${fmt(r.p99, 2)} | ${fmt(r.rps, 0)} | ${r.errors} |`;
      return `
| Path (POST /v1/tools/${TOOL}/tasks → 202) | p50 ms | p90 ms | p99 ms | Requests/s | Errors |
|---|---:|---:|---:|---:|---:|
${row('**Baseline:** API key, one at a time', keySeq)}
${row('x402 payment, one at a time', paySeq)}
${row(`**Baseline:** API key, ${CONCURRENCY} in flight`, keyPar)}
${row(`x402 payment, ${CONCURRENCY} in flight`, payPar)}

- x402 acceptance takes **${fmt(paySeq.p50 / keySeq.p50, 1)}×** the API-key latency at p50 one at a time (${fmt(paySeq.p50 - keySeq.p50, 2)} ms more), and reaches **${fmt((payPar.rps / keyPar.rps) * 100, 0)}%** of its rate with ${CONCURRENCY} in flight.
- The extra time is the EIP-712 signature check and one \`eth_call\` (Multicall3: balance + authorization state) to a local Hardhat node; against a remote RPC endpoint add its round trip.
- For scale: the Hardhat node alone answered that \`eth_call\` **${fmt(chainRate, 0)}/s** with ${CONCURRENCY} in flight, and one signature check (viem \`verifyTypedData\`, ECDSA recovery in JavaScript on the event loop) took **${fmt(verifyMs, 2)} ms** in the load generator.
- Signing one authorization with the official client (viem account, in the load generator) took ${fmt(signMs, 2)} ms; it is not in the figures above.
- The wallet holds 100 USDC; a wallet holding less than 200 × the dearest tool's price also pays for one store read of its unsettled tasks per payment.
- SQLite store, API node without workers; server, chain and load generator share this machine's cores.
`;
    } finally {
      for (const c of cleanup.reverse()) await c().catch(() => undefined);
    }
  },
};
