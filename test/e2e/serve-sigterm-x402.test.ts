// SIGTERM to a `serve` node that settles x402 payments: the node stops settling and hands its leases
// (settlement, key purchases) back while its store is still open, so another node takes over at once rather than after the
// lease's TTL, and exits 0. (It closed the store first and then failed to release the lease, with a
// warning, leaving the next node to wait out the TTL.) Built CLI, PostgreSQL store, local Hardhat chain.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawnCli, stopChild, waitForHttp } from '../support/cli.js';
import { freePort } from '../support/free-port.js';
import { SETTLER_KEY, startLocalChain, type LocalChain } from '../support/local-chain.js';
import { createTestSchema, type TestSchema } from '../support/postgres.js';

let chain: LocalChain;
let schema: TestSchema;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-serve-sigterm-'));
const leaseName = `x402-settlement:eip155:8453:${privateKeyToAccount(SETTLER_KEY).address.toLowerCase()}`;

beforeAll(async () => {
  [chain, schema] = await Promise.all([startLocalChain(), createTestSchema()]);
}, 120_000);

afterAll(async () => {
  await chain?.stop();
  await schema?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const leases = async () => (await schema.query<{ name: string }>('SELECT name FROM leader_leases ORDER BY name')).map((r) => r.name);

it('hands the settlement lease back on SIGTERM before closing its store, and exits 0', async () => {
  const port = await freePort();
  const child = spawnCli(['serve', '--no-workers', '--port', String(port)], {
    ...schema.env,
    DATA_DIR: dataDir,
    SECRET: 's'.repeat(40),
    X402_PAY_TO: privateKeyToAccount(generatePrivateKey()).address,
    X402_RPC_URL: chain.rpcUrl,
    X402_SETTLER_KEY: SETTLER_KEY,
    LOG_LEVEL: 'info',
  });
  let log = '';
  child.stdout?.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (log += c.toString()));
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`);
    const deadline = Date.now() + 30_000;
    while (!(await leases()).includes(leaseName)) {
      if (Date.now() > deadline) throw new Error(`the node never took the settlement lease\n${log.slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stopChild(child, 'SIGKILL');
    throw err;
  }
  await stopChild(child, 'SIGTERM');
  expect(child.exitCode, log.slice(-2000)).toBe(0);
  // Both x402 leases (settlement, and the key purchases' reconciler) are free for the next node.
  expect(await leases()).toEqual([]);
  expect(log).not.toMatch(/could not release a leader lease/);
}, 120_000);
