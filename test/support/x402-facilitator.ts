// The official x402 facilitator (x402Facilitator from @x402/core with the exact EVM scheme from
// @x402/evm) served over loopback HTTP (POST /verify, POST /settle), settling on the local chain.
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import { x402Facilitator } from '@x402/core/facilitator';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createWalletClient, defineChain, http as viemHttp, publicActions, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { CHAIN_ID, MULTICALL3, type LocalChain } from './local-chain.js';

export interface OfficialFacilitator {
  url: string;
  calls: { verify: number; settle: number };
  close(): Promise<void>;
}

export async function startOfficialFacilitator(chain: LocalChain, key: Hex): Promise<OfficialFacilitator> {
  const account = privateKeyToAccount(key);
  const evm = defineChain({
    id: CHAIN_ID,
    name: 'local-base',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
    contracts: { multicall3: { address: MULTICALL3 } },
  });
  const client = createWalletClient({ account, chain: evm, transport: viemHttp(chain.rpcUrl), pollingInterval: 50 }).extend(publicActions);
  const signer = toFacilitatorEvmSigner(Object.assign(client, { address: account.address }) as never);
  const facilitator = new x402Facilitator().register(`eip155:${CHAIN_ID}`, new ExactEvmScheme(signer));
  const calls = { verify: 0, settle: 0 };
  const app = express();
  app.use(express.json());
  app.post('/verify', async (req, res) => {
    calls.verify++;
    res.json(await facilitator.verify(req.body.paymentPayload, req.body.paymentRequirements));
  });
  app.post('/settle', async (req, res) => {
    calls.settle++;
    res.json(await facilitator.settle(req.body.paymentPayload, req.body.paymentRequirements));
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
