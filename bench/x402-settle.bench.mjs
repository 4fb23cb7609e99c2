// x402 settlement throughput: how fast the settler account turns a backlog of completed paid tasks into
// transfers on chain, with the node on loopback and behind a relay that holds each JSON-RPC request for a
// round trip's worth (a node 50 or 100 ms away, as a hosted RPC endpoint is). Sends go one at a time (each
// takes the account's next nonce); the baseline in the same run sends each transfer alone
// (transfersPerTransaction: 1, how every transfer went before group commit), against the default, which
// sends the transfers asked for while a send is under way together (up to 10 per Multicall3 transaction).
// Measured on ChainAccess directly: 100 transfers asked for at once, as a sweep's page of pending payments
// or a burst of completions asks for them, to the last one mined; gas from the receipts. Local Hardhat chain
// with Base's USDC bytecode; nothing leaves the machine.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ROOT } from './lib/processes.mjs';

const { startLocalChain, SETTLER_KEY, BASE_USDC, CHAIN_ID } = await import(path.join(ROOT, 'dist/test/support/local-chain.js'));
const { startRpcRelay } = await import(path.join(ROOT, 'dist/test/support/rpc-relay.js'));
const { ChainAccess } = await import(path.join(ROOT, 'dist/src/billing/x402/chain.js'));
const { signUsdcAuthorization } = await import(path.join(ROOT, 'dist/test/support/usdc-authorization.js'));

const TRANSFERS = 100;
const PAYERS = 10;
const PRICE = 1_000n;
/** Extra time each JSON-RPC request is held at the relay (a round trip to a node that far away). */
const ROUND_TRIPS_MS = [0, 50, 100];

/** `count` signed authorizations to `payTo`, from `payers` in turn, each with its own nonce. */
async function authorizations(payers, payTo, count) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(await signUsdcAuthorization(payers[i % payers.length], payTo, PRICE, 3600));
  return out;
}

async function settleAll(chain, rpcUrl, perTransaction, payers) {
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const signed = await authorizations(payers, payTo, TRANSFERS);
  const access = new ChainAccess({
    rpcUrl,
    chainId: CHAIN_ID,
    network: `eip155:${CHAIN_ID}`,
    settlerKey: SETTLER_KEY,
    pollingIntervalMs: 50,
    transfersPerTransaction: perTransaction,
  });
  const t0 = performance.now();
  const hashes = await Promise.all(signed.map((s) => access.submitTransfer(BASE_USDC, s.authorization, s.signature)));
  const receipts = await Promise.all(hashes.map((h) => access.waitForReceipt(h)));
  const seconds = (performance.now() - t0) / 1000;
  const failed = receipts.filter((r) => !r.succeeded).length;
  const transactions = [...new Set(hashes)];
  let gas = 0n;
  for (const hash of transactions) gas += (await chain.client.getTransactionReceipt({ hash })).gasUsed;
  const paid = await chain.usdcBalance(payTo);
  return {
    seconds,
    perSecond: TRANSFERS / seconds,
    transactions: transactions.length,
    gasPerTransfer: Number(gas) / TRANSFERS,
    failed,
    complete: paid === PRICE * BigInt(TRANSFERS),
  };
}

export default {
  name: 'x402-settle',
  title: 'x402 settlement: transfers per second from a backlog, each sent alone vs sent together',
  async run() {
    const chain = await startLocalChain();
    const relay = await startRpcRelay(chain.rpcUrl);
    const rows = [];
    try {
      const payers = Array.from({ length: PAYERS }, () => privateKeyToAccount(generatePrivateKey()));
      // Enough for every run below; minted one at a time (the minter's nonces).
      for (const p of payers) await chain.mint(p.address, PRICE * BigInt(TRANSFERS) * BigInt(ROUND_TRIPS_MS.length * 2));
      for (const delay of ROUND_TRIPS_MS) {
        relay.beforeRelay = delay > 0 ? () => new Promise((r) => setTimeout(r, delay)) : undefined;
        for (const [label, perTransaction] of [
          ['each alone (before)', 1],
          ['together (default, up to 10)', undefined],
        ]) {
          const r = await settleAll(chain, relay.url, perTransaction, payers);
          rows.push({ delay, label, ...r });
          process.stderr.write(`  ${delay} ms, ${label}: ${r.perSecond.toFixed(1)}/s, ${r.transactions} transactions\n`);
        }
      }
    } finally {
      relay.beforeRelay = undefined;
      await relay.close();
      await chain.stop();
    }
    const table = rows.map(
      (r) =>
        `| ${r.delay === 0 ? 'loopback' : `+${r.delay} ms`} | ${r.label} | ${r.perSecond.toFixed(1)} | ${r.seconds.toFixed(2)} | ${r.transactions} | ${Math.round(r.gasPerTransfer).toLocaleString('en-US')} | ${r.failed === 0 && r.complete ? 'all paid' : `${r.failed} failed`} |`,
    );
    return [
      `${TRANSFERS} transfers asked for at once (${PAYERS} payers, ${PRICE} units each), by one settler account, to the last one mined. The node is a local Hardhat chain (automine) behind a loopback relay that holds each JSON-RPC request for the given time before passing it on: a node that far away. Gas from the receipts.`,
      '',
      '| node | sent | transfers/s | seconds | transactions | gas per transfer | outcome |',
      '| --- | --- | ---: | ---: | ---: | ---: | --- |',
      ...table,
    ].join('\n');
  },
};
