// x402 payment headers for a load generator, signed on a worker thread: signing (secp256k1, keccak,
// EIP-712 hashing; the secp256k1 part now in WebAssembly, as the settler's) took most of the soak generator's main-thread CPU and delayed its
// open-loop sends. The thread keeps `ahead` headers per tool signed (one fresh signature per request,
// payers in turn, exactly what the official client sends); the main thread only takes them.
// Still the generator's CPU: process.cpuUsage() counts every thread of the process.
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';

if (!isMainThread && workerData?.x402Signer) {
  const { x402Client, x402HTTPClient } = await import('@x402/fetch');
  const { registerExactEvmScheme } = await import('@x402/evm/exact/client');
  // viem's account with libsecp256k1 (WebAssembly) signing: the same signatures for a quarter of the CPU.
  const { fastPrivateKeyToAccount } = await import('../../dist/src/billing/x402/secp256k1.js');
  const payers = workerData.keys.map((key) => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: fastPrivateKeyToAccount(key) });
    return { client, http: new x402HTTPClient(client) };
  });
  const required = new Map(workerData.required);
  let signed = 0;
  // Requests for headers, served in order: [tool, count].
  const queue = [];
  let busy = false;
  const serve = async () => {
    if (busy) return;
    busy = true;
    while (queue.length > 0) {
      const [tool, count] = queue.shift();
      const headers = [];
      for (let i = 0; i < count; i++) {
        const payer = payers[signed++ % payers.length];
        headers.push(payer.http.encodePaymentSignatureHeader(await payer.client.createPaymentPayload(required.get(tool))));
      }
      parentPort.postMessage({ tool, headers });
    }
    busy = false;
  };
  parentPort.on('message', (m) => {
    queue.push([m.tool, m.count]);
    void serve();
  });
}

/**
 * Starts the signing thread for `keys` (payers' private keys) and `required` (tool → the payment
 * requirements its 402 answer named); resolves once every tool has `ahead` headers ready.
 */
export async function startX402Signer({ keys, required, ahead }) {
  const worker = new Worker(new URL(import.meta.url), { workerData: { x402Signer: true, keys, required: [...required] } });
  const buffers = new Map([...required.keys()].map((t) => [t, []]));
  // Headers asked for and not yet delivered, per tool: refills are asked for in chunks, never twice over.
  const asked = new Map([...required.keys()].map((t) => [t, 0]));
  const chunk = Math.max(1, Math.ceil(ahead / 4));
  const refill = (tool) => {
    const want = ahead - buffers.get(tool).length - asked.get(tool);
    if (want >= chunk) {
      asked.set(tool, asked.get(tool) + want);
      worker.postMessage({ tool, count: want });
    }
  };
  let onFilled;
  const filled = new Promise((resolve, reject) => {
    onFilled = resolve;
    worker.once('error', reject);
  });
  worker.on('message', ({ tool, headers }) => {
    buffers.get(tool).push(...headers);
    asked.set(tool, asked.get(tool) - headers.length);
    if ([...buffers.values()].every((b) => b.length >= ahead)) onFilled();
  });
  for (const tool of required.keys()) refill(tool);
  await filled;
  return {
    /** A fresh header for `tool`, or undefined when signing fell behind (counted by the caller). */
    take(tool) {
      const header = buffers.get(tool).shift();
      refill(tool);
      return header;
    },
    async stop() {
      await worker.terminate();
    },
  };
}
