#!/usr/bin/env node
// CPU of one x402 signature check (built dist/): viem's verifyTypedData (recovers the key every time)
// against src/billing/x402/typed-signature.ts for a payer whose key is kept. `node bench/lib/typed-signature-cost.mjs [n]`.
import { verifyTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { TypedSignatureChecker } from '../../dist/src/billing/x402/typed-signature.js';
import { transferWithAuthorizationTypes } from '../../dist/src/billing/x402/token-abi.js';

const n = Number(process.argv[2] ?? 300);
const domain = { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' };
const account = privateKeyToAccount(generatePrivateKey());
const params = [];
for (let i = 0; i < n; i++) {
  const message = {
    from: account.address,
    to: '0x00000000000000000000000000000000000000A1',
    value: 1000n,
    validAfter: 0n,
    validBefore: 2_000_000_000n,
    nonce: `0x${(i + 1).toString(16).padStart(64, '0')}`,
  };
  const signature = await account.signTypedData({ domain, types: transferWithAuthorizationTypes, primaryType: 'TransferWithAuthorization', message });
  params.push({ address: account.address, domain, types: transferWithAuthorizationTypes, primaryType: 'TransferWithAuthorization', message, signature });
}
const cpu = async (fn) => {
  const c0 = process.cpuUsage();
  for (const p of params) if (!(await fn(p))) throw new Error('refused a good signature');
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
};
const checker = new TypedSignatureChecker();
await checker.verify(params[0]);
// Warm-up of both paths, then alternate three times.
await cpu((p) => verifyTypedData(p));
await cpu((p) => checker.verify(p));
const viem = [];
const kept = [];
for (let i = 0; i < 3; i++) {
  viem.push(await cpu((p) => verifyTypedData(p)));
  kept.push(await cpu((p) => checker.verify(p)));
}
const med = (a) => a.sort((x, y) => x - y)[1];
process.stdout.write(
  `viem verifyTypedData ${med(viem).toFixed(0)} µs CPU per check; kept key ${med(kept).toFixed(0)} µs (${(med(viem) / med(kept)).toFixed(1)}×); ${n} checks × 3 each\n`,
);
