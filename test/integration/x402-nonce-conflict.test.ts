// A settlement transfer whose account nonce another sender took between the nonce read and the send is
// resent with the next nonce (ChainAccess.submitTransfer), rather than failing and waiting for the
// settlement backoff. The conflict is a real one on the local chain: a JSON-RPC relay in front of the node,
// on the settler's first raw transaction, first has the same account send another transaction (as a
// second process settling from that account would), then forwards the settler's, which the node refuses
// as "nonce too low".
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createWalletClient, http, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChainAccess } from '../../src/billing/x402/chain.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { BASE_USDC, CHAIN_ID, SETTLER_KEY, startLocalChain, type LocalChain } from '../support/local-chain.js';
import { signUsdcAuthorization, type SignedAuthorization } from '../support/usdc-authorization.js';

let chain: LocalChain;
let relay: LocalServer;
const answers: { method: string; error?: string }[] = [];
/** The next eth_sendRawTransaction is preceded by another sender's transaction from the settler account. */
let interfere = true;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  chain = await startLocalChain();
  const other = createWalletClient({ account: privateKeyToAccount(SETTLER_KEY), chain: chain.client.chain, transport: http(chain.rpcUrl) });
  relay = await startLocalServer({
    handler: (req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const body = await readBody(req);
        const call = JSON.parse(body) as { method: string };
        if (call.method === 'eth_sendRawTransaction' && interfere) {
          interfere = false;
          // The other sender takes the nonce the settler just read (the node mines it at once).
          await other.sendTransaction({ to: other.account.address, value: 0n, chain: null });
        }
        const upstream = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        const text = await upstream.text();
        if (call.method === 'eth_sendRawTransaction')
          answers.push({ method: call.method, error: (JSON.parse(text) as { error?: { message: string } }).error?.message });
        res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(text);
      })();
    },
  });
}, 120_000);

afterAll(async () => {
  await relay?.close();
  await chain?.stop();
});

async function signedTransfer(payTo: Hex): Promise<SignedAuthorization> {
  const payer = privateKeyToAccount(generatePrivateKey());
  await chain.mint(payer.address, 10_000n);
  return signUsdcAuthorization(payer, payTo, 10_000n);
}

it('resends a transfer refused for a nonce another sender took, with the account nonce read again', async () => {
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const { authorization, signature } = await signedTransfer(payTo);
  const access = new ChainAccess({ rpcUrl: relay.origin, chainId: CHAIN_ID, network: `eip155:${CHAIN_ID}`, settlerKey: SETTLER_KEY, pollingIntervalMs: 50 });

  answers.length = 0;
  interfere = true;
  const hash = await access.submitTransfer(BASE_USDC, authorization, signature);
  expect((await access.waitForReceipt(hash)).succeeded).toBe(true);
  // The first send met the conflict; the second, with the next nonce, went through.
  expect(answers).toHaveLength(2);
  expect(answers[0]!.error).toMatch(/nonce too low/i);
  expect(answers[1]!.error).toBeUndefined();
  expect(await chain.transfersTo(payTo)).toEqual([expect.objectContaining({ transactionHash: hash, value: 10_000n })]);
}, 120_000);

it('a nonce counted locally that another sender took is read again from the node, and the transfer resent', async () => {
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const first = await signedTransfer(payTo);
  const second = await signedTransfer(payTo);
  // The count stays local for the whole test: the second send uses the nonce after the first's.
  const access = new ChainAccess({
    rpcUrl: relay.origin,
    chainId: CHAIN_ID,
    network: `eip155:${CHAIN_ID}`,
    settlerKey: SETTLER_KEY,
    pollingIntervalMs: 50,
    nonceCacheMs: 600_000,
  });
  interfere = false;
  const a = await access.submitTransfer(BASE_USDC, first.authorization, first.signature);
  expect((await access.waitForReceipt(a)).succeeded).toBe(true);

  answers.length = 0;
  interfere = true;
  const b = await access.submitTransfer(BASE_USDC, second.authorization, second.signature);
  expect((await access.waitForReceipt(b)).succeeded).toBe(true);
  expect(answers.map((x) => /nonce too low/i.test(x.error ?? ''))).toEqual([true, false]);
  const transfers = await chain.transfersTo(payTo);
  expect(transfers.map((t) => t.transactionHash).sort()).toEqual([a, b].sort());
}, 120_000);
