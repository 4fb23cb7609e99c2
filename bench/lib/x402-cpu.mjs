#!/usr/bin/env node
// CPU of the x402 money path's crypto in the API process (built dist/), on real payloads: the payment
// verification (verifyPayment on headers the official x402 client signs, from 4 payers in turn as in the
// soak; the chain read answered at once, so only this process's own work counts), its parts (EIP-712
// hashing, the signature check), and the signing of a settlement transaction (transferWithAuthorization,
// EIP-1559) by the settler account. Each is measured with viem's account/check and with the process's own
// (src/billing/x402/secp256k1.ts), alternated three times; medians of µs CPU per call (process.cpuUsage).
// `node bench/lib/x402-cpu.mjs [n] [other dist folder]`: with another build (e.g. a copy of main's dist/),
// its verifyPayment and signature check are measured in the same loop, on the same headers.
import { x402Client, x402HTTPClient } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { encodeFunctionData, hashTypedData, verifyTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { verifyPayment } from '../../dist/src/billing/x402/verify.js';
import { paymentRequiredFor } from '../../dist/src/billing/x402/requirements.js';
import { DEFAULT_TIMING } from '../../dist/src/billing/x402/settings.js';
import { KNOWN_USDC } from '../../dist/src/billing/x402/tokens.js';
import { eip3009Abi, transferWithAuthorizationTypes } from '../../dist/src/billing/x402/token-abi.js';
import { typedSignatures } from '../../dist/src/billing/x402/typed-signature.js';
import { decodePaymentHeader } from '../../dist/src/billing/x402/wire.js';
import { tools } from '../../dist/tools/index.js';

const own = await import('../../dist/src/billing/x402/secp256k1.js').catch(() => undefined);
const otherDist = process.argv[3] ? (await import('node:path')).resolve(process.argv[3]) : undefined;
const other = otherDist
  ? {
      verifyPayment: (await import(`${otherDist}/src/billing/x402/verify.js`)).verifyPayment,
      typedSignatures: (await import(`${otherDist}/src/billing/x402/typed-signature.js`)).typedSignatures,
    }
  : undefined;

const n = Number(process.argv[2] ?? 400);
const settings = {
  payTo: '0x00000000000000000000000000000000000000A1',
  network: 'eip155:8453',
  chainId: 8453,
  token: KNOWN_USDC['eip155:8453'],
  publicUrl: 'https://api.example.test',
  maxAttempts: 3,
  timing: DEFAULT_TIMING,
  mode: 'self',
};
const tool = tools.find((t) => t.name === 'dns.lookup');
const url = `${settings.publicUrl}/v1/tools/${tool.name}/tasks`;
const required = paymentRequiredFor(tool, url, settings, {});
const payers = Array.from({ length: 4 }, () => {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(generatePrivateKey()) });
  return { client, http: new x402HTTPClient(client) };
});
const headers = [];
for (let i = 0; i < n; i++) {
  const p = payers[i % payers.length];
  headers.push(Object.values(p.http.encodePaymentSignatureHeader(await p.client.createPaymentPayload(required)))[0]);
}
const chain = { payerState: async () => ({ balance: 10n ** 12n, nonceUsed: false }) };
const deps = { settings, chain };
const domain = { name: settings.token.name, version: settings.token.version, chainId: settings.chainId, verifyingContract: settings.token.address };
const typed = headers.map((h) => {
  const p = decodePaymentHeader(h);
  const a = p.authorization;
  const message = { from: a.from, to: a.to, value: BigInt(a.value), validAfter: BigInt(a.validAfter), validBefore: BigInt(a.validBefore), nonce: a.nonce };
  return { address: a.from, domain, types: transferWithAuthorizationTypes, primaryType: 'TransferWithAuthorization', message, signature: p.signature };
});

// Settlement transactions: what ChainAccess.submitTransfer has the settler account sign.
const settlerKey = generatePrivateKey();
const viemSettler = privateKeyToAccount(settlerKey);
const ownSettler = own?.fastPrivateKeyToAccount?.(settlerKey);
const txs = typed.map((t, i) => {
  const sig = t.signature;
  const m = t.message;
  return {
    type: 'eip1559',
    chainId: 8453,
    nonce: i,
    to: settings.token.address,
    gas: 90_000n,
    maxFeePerGas: 2_000_000_000n,
    maxPriorityFeePerGas: 1_000_000n,
    data: encodeFunctionData({
      abi: eip3009Abi,
      functionName: 'transferWithAuthorization',
      args: [
        m.from,
        m.to,
        m.value,
        m.validAfter,
        m.validBefore,
        m.nonce,
        Number.parseInt(sig.slice(130), 16),
        `0x${sig.slice(2, 66)}`,
        `0x${sig.slice(66, 130)}`,
      ],
    }),
  };
});

const cpu = async (fn, items) => {
  const c0 = process.cpuUsage();
  for (const x of items) await fn(x);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / items.length;
};
const cases = [
  ...(other ? [['verifyPayment, other build', (h) => other.verifyPayment(tool, h, url, deps), headers]] : []),
  ['verifyPayment (whole, chain read stubbed)', (h) => verifyPayment(tool, h, url, deps), headers],
  ...(other
    ? [['  signature check, other build', (t) => other.typedSignatures.verify(t).then((ok) => ok || Promise.reject(new Error('refused'))), typed]]
    : []),
  ['  EIP-712 hash (viem hashTypedData)', (t) => hashTypedData(t), typed],
  ['  signature check (typed-signature.ts)', (t) => typedSignatures.verify(t).then((ok) => ok || Promise.reject(new Error('refused'))), typed],
  ['  viem verifyTypedData (recovers every time)', (t) => verifyTypedData(t).then((ok) => ok || Promise.reject(new Error('refused'))), typed],
  ['settlement tx signing, viem privateKeyToAccount', (tx) => viemSettler.signTransaction(tx), txs],
];
if (ownSettler) cases.push(['settlement tx signing, fastPrivateKeyToAccount', (tx) => ownSettler.signTransaction(tx), txs]);
if (ownSettler) {
  // Same bytes from both signers.
  for (const tx of txs.slice(0, 20)) if ((await viemSettler.signTransaction(tx)) !== (await ownSettler.signTransaction(tx))) throw new Error('signers differ');
}
for (const [, fn, items] of cases) await cpu(fn, items); // warm-up
const runs = cases.map(() => []);
for (let r = 0; r < 3; r++) for (const [i, [, fn, items]] of cases.entries()) runs[i].push(await cpu(fn, items));
const med = (a) => [...a].sort((x, y) => x - y)[1];
for (const [i, [name]] of cases.entries()) process.stdout.write(`${name.padEnd(52)} ${med(runs[i]).toFixed(1).padStart(8)} µs CPU per call\n`);
process.stdout.write(`${n} calls × 3 each (medians); verifyPayment headers from 4 payers in turn\n`);
