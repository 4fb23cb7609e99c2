// Transfers asked for together (in one turn, or while a send is under way) settle as one Multicall3
// transaction (ChainAccess.submitTransfer, up to transfersPerTransaction), on the
// local Hardhat chain with Base's USDC (FiatToken) and Multicall3: one hash for all, each payer's transfer
// in it, each authorization used. One authorization that would revert (already used) does not take the
// others down: the group's gas estimate fails, each transfer is then sent alone, and only that one fails,
// with the token's own reason, before anything of it is sent. A group whose send failed otherwise (an answer
// lost) fails each transfer, none resent alone: the batch may be on chain.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ChainAccess } from '../../src/billing/x402/chain.js';
import { eip3009Abi } from '../../src/billing/x402/token-abi.js';
import { BaseError, ContractFunctionRevertedError } from '../../src/billing/x402/viem.js';
import type { Authorization } from '../../src/billing/x402/wire.js';
import { BASE_USDC, CHAIN_ID, SETTLER_KEY, startLocalChain, type LocalChain } from '../support/local-chain.js';
import { startRpcRelay } from '../support/rpc-relay.js';
import { signUsdcAuthorization, type SignedAuthorization } from '../support/usdc-authorization.js';

let chain: LocalChain;
let access: ChainAccess;
let options: ConstructorParameters<typeof ChainAccess>[0];

beforeAll(async () => {
  chain = await startLocalChain();
  options = {
    rpcUrl: chain.rpcUrl,
    chainId: CHAIN_ID,
    network: `eip155:${CHAIN_ID}`,
    settlerKey: SETTLER_KEY,
    pollingIntervalMs: 50,
    // Two accesses send from the settler account here: each reads the account nonce before every send.
    nonceCacheMs: 0,
  };
  access = new ChainAccess({ ...options, transfersPerTransaction: 4 });
}, 120_000);

afterAll(async () => {
  await chain?.stop();
});

/** Signed transfers of these values to `payTo`, their payers funded one after another (the deployer mints each). */
async function signedTransfers(payTo: Hex, values: bigint[]): Promise<SignedAuthorization[]> {
  const out = [];
  for (const v of values) out.push(await signedTransfer(payTo, v));
  return out;
}

async function signedTransfer(payTo: Hex, value: bigint): Promise<SignedAuthorization> {
  const payer = privateKeyToAccount(generatePrivateKey());
  await chain.mint(payer.address, value);
  return signUsdcAuthorization(payer, payTo, value);
}

async function used(a: Authorization): Promise<boolean> {
  return chain.client.readContract({ address: BASE_USDC, abi: eip3009Abi, functionName: 'authorizationState', args: [a.from, a.nonce] });
}

it('sends transfers asked for together as one transaction that carries each of them', async () => {
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const signed = await signedTransfers(payTo, [1_000n, 2_000n, 3_000n, 4_000n]);
  const settler = privateKeyToAccount(SETTLER_KEY).address;
  const sent = await chain.client.getTransactionCount({ address: settler });
  const hashes = await Promise.all(signed.map((t) => access.submitTransfer(BASE_USDC, t.authorization, t.signature)));
  expect(new Set(hashes).size).toBe(1);
  expect(await chain.client.getTransactionCount({ address: settler })).toBe(sent + 1);
  const receipts = await Promise.all(hashes.map((h) => access.waitForReceipt(h)));
  expect(receipts.every((r) => r.succeeded)).toBe(true);

  const transfers = await chain.transfersTo(payTo);
  expect(transfers.map((t) => t.transactionHash)).toEqual([hashes[0], hashes[0], hashes[0], hashes[0]]);
  expect(transfers.map((t) => [t.from, t.value])).toEqual(signed.map((t) => [t.authorization.from, BigInt(t.authorization.value)]));
  expect(await chain.usdcBalance(payTo)).toBe(10_000n);
  for (const t of signed) expect(await used(t.authorization)).toBe(true);
  // What settlement does after a lost answer finds the transfer in the shared transaction.
  for (const t of signed) expect(await access.findTransfer(BASE_USDC, t.authorization)).toBe(hashes[0]);
});

it('sends the others alone when one of the group would revert, and fails only that one, unsent', async () => {
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const signed = await signedTransfers(payTo, [1_000n, 2_000n, 3_000n, 4_000n]);
  // The second authorization is used (by a sender that sends each alone) before the group goes: its transfer would revert.
  const spent = signed[1]!;
  const alone = new ChainAccess({ ...options, transfersPerTransaction: 1 });
  expect((await alone.waitForReceipt(await alone.submitTransfer(BASE_USDC, spent.authorization, spent.signature))).succeeded).toBe(true);
  const before = await chain.client.getTransactionCount({ address: privateKeyToAccount(SETTLER_KEY).address });

  const results = await Promise.allSettled(signed.map((t) => access.submitTransfer(BASE_USDC, t.authorization, t.signature)));
  expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
  const refused = (results[1] as PromiseRejectedResult).reason as unknown;
  expect(refused instanceof BaseError && refused.walk((e) => e instanceof ContractFunctionRevertedError)).toBeTruthy();
  const hashes = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  expect(new Set(hashes).size).toBe(3);
  for (const h of hashes) expect((await access.waitForReceipt(h)).succeeded).toBe(true);
  // Three transactions sent, none for the refused transfer nor for the group.
  expect(await chain.client.getTransactionCount({ address: privateKeyToAccount(SETTLER_KEY).address })).toBe(before + 3);
  expect(await chain.usdcBalance(payTo)).toBe(10_000n);
});

it('sends the transfers asked for while a send is under way together in the next one, so sends do not cap settlement', async () => {
  const payTo = privateKeyToAccount(generatePrivateKey()).address;
  const signed = await signedTransfers(payTo, [1_000n, 1_000n, 1_000n, 1_000n, 1_000n, 1_000n]);
  const settler = privateKeyToAccount(SETTLER_KEY).address;
  const sent = await chain.client.getTransactionCount({ address: settler });
  const grouping = new ChainAccess(options);
  const [first, ...rest] = signed;
  const alone = grouping.submitTransfer(BASE_USDC, first!.authorization, first!.signature);
  // The first send has started (its gas estimate is on its way to the node) when the others are asked for.
  await new Promise((r) => setImmediate(r));
  const together = rest.map((t) => grouping.submitTransfer(BASE_USDC, t.authorization, t.signature));
  const hashes = await Promise.all([alone, ...together]);
  expect(new Set(hashes.slice(1)).size).toBe(1);
  expect(hashes[0]).not.toBe(hashes[1]);
  expect(await chain.client.getTransactionCount({ address: settler })).toBe(sent + 2);
  expect(await chain.usdcBalance(payTo)).toBe(6_000n);
});

it('fails every transfer of a group whose send failed, without sending them alone (the batch may be on chain)', async () => {
  const relay = await startRpcRelay(chain.rpcUrl);
  try {
    const payTo = privateKeyToAccount(generatePrivateKey()).address;
    const signed = await signedTransfers(payTo, [1_000n, 2_000n, 3_000n]);
    const lossy = new ChainAccess({ ...options, rpcUrl: relay.url });
    relay.dropped.add('eth_sendRawTransaction');
    relay.counting = true;
    const results = await Promise.allSettled(signed.map((t) => lossy.submitTransfer(BASE_USDC, t.authorization, t.signature)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    // One gas estimate, the group's: none for lone sends after it.
    expect(relay.calls.get('eth_estimateGas')).toBe(1);
    expect(await chain.usdcBalance(payTo)).toBe(0n);
  } finally {
    await relay.close();
  }
});
