// Key purchases a crash left pending are reconciled by one process at a time: the holder of the store's
// lease `x402-key-purchases`. Two API nodes share one PostgreSQL store; a purchase whose authorization
// expired unused (the reconciler reads that from the chain and records it unpaid) is left alone by the
// node that does not hold the lease, resolved by the one that does, and once the holder stops, the
// survivor takes the lease over and resolves what is pending without being asked.
import { randomBytes } from 'node:crypto';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalChain, type LocalChain } from '../support/local-chain.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';
import { startX402Service, type X402TestService } from '../support/x402-service.js';

const LEASE = { ttlMs: 3_000, renewMs: 200 };

let chain: LocalChain;
let schema: TestSchema;
const nodes: X402TestService[] = [];

beforeAll(async () => {
  chain = await startLocalChain();
  schema = await createTestSchema();
}, 120_000);

afterAll(async () => {
  for (const n of nodes) await n.close().catch(() => undefined);
  await schema?.drop();
  await chain?.stop();
});

async function until(what: string, done: () => Promise<boolean> | boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A purchase recorded pending whose authorization expired ten minutes ago without being used. */
async function expiredPurchase(svc: X402TestService): Promise<string> {
  const wallet = privateKeyToAccount(generatePrivateKey()).address;
  const nonce = `0x${randomBytes(32).toString('hex')}`;
  const validBefore = Math.floor(Date.now() / 1000) - 600;
  const { settings } = svc.x402;
  const payment = {
    status: 'pending',
    scheme: 'exact',
    x402_version: 2,
    network: settings.network,
    asset: settings.token.address,
    pay_to: settings.payTo,
    payer: wallet,
    amount: '1000000',
    amount_usd: '1',
    valid_before: new Date(validBefore * 1000).toISOString(),
    transaction: null,
    resource_url: `${svc.url}/v1/keys`,
    max_timeout_seconds: 600,
    authorization: { from: wallet, to: settings.payTo, value: '1000000', validAfter: '0', validBefore: String(validBefore), nonce },
    signature: `0x${'11'.repeat(65)}`,
  };
  const id = `kp_lease${randomBytes(4).toString('hex')}`;
  const reserved = await svc.rt.store.reserveKeyPurchase({
    id,
    kind: 'create',
    keyId: null,
    wallet,
    micros: 1_000_000,
    payment,
    nonce: { network: settings.network, asset: settings.token.address, payer: wallet, nonce },
    now: Date.now() - 1_000,
  });
  expect(reserved.kind).toBe('reserved');
  return wallet;
}

const statusOf = async (svc: X402TestService, wallet: string) => (await svc.rt.store.listKeyPurchases(wallet, 1))[0]?.status;

it('only the lease holder reconciles pending key purchases; a survivor takes over once the holder stops (PostgreSQL)', async () => {
  const x402 = { purchases: { intervalMs: 600_000, lease: LEASE } };
  const env = { ...schema.env, X402_KEY_MIN_USD: '1', X402_KEY_MAX_USD: '20' };
  const [a, b] = [await startX402Service(chain, { env, x402, workers: false }), await startX402Service(chain, { env, x402, workers: false })];
  nodes.push(a!, b!);
  await until('one node holds the reconciliation lease', () => a!.x402.purchases!.leading || b!.x402.purchases!.leading);
  const [leader, other] = a!.x402.purchases!.leading ? [a!, b!] : [b!, a!];
  expect(other.x402.purchases!.leading).toBe(false);
  const [row] = await schema.query<{ name: string; holder: string }>(`SELECT name, holder FROM leader_leases WHERE name = 'x402-key-purchases'`);
  expect(row?.holder).toBeDefined();

  // The other node's sweep reads nothing and resolves nothing.
  const first = await expiredPurchase(other);
  await other.x402.purchases!.sweepOnce();
  expect(await statusOf(other, first)).toBe('pending');
  // The holder's sweep resolves it (the chain shows its authorization unused, past validBefore).
  await leader.x402.purchases!.sweepOnce();
  expect(await statusOf(other, first)).toBe('unpaid');

  // The holder stops (SIGTERM releases its lease): the survivor takes it and sweeps on taking it, with no
  // sweep of its own due for ten minutes.
  const second = await expiredPurchase(other);
  await leader.close();
  nodes.splice(nodes.indexOf(leader), 1);
  await until('the survivor takes the lease over', () => other.x402.purchases!.leading);
  await until('the survivor resolves the pending purchase', async () => (await statusOf(other, second)) === 'unpaid');
}, 180_000);
