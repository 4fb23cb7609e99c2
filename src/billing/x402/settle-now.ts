// Settles one payment while the request waits (self-serve key purchases: credit is granted only once the
// transfer is on chain). Tasks settle later through the Settler; this is its single attempt, without retries.
import { BaseError, ContractFunctionRevertedError, type Hash } from './viem.js';
import type { ChainAccess } from './chain.js';
import type { FacilitatorClient } from './facilitator.js';
import { requirementOf, type PaymentRecord } from './payment-record.js';
import type { X402Settings } from './settings.js';

export interface SettleNowDeps {
  settings: X402Settings;
  chain: ChainAccess | undefined;
  facilitator: FacilitatorClient | undefined;
}

/**
 * A settlement known not to have happened: the facilitator refused it, or the node refused the transfer
 * before it was sent (it would revert). Any other error may follow a transfer that is (or will be) mined.
 */
export class SettlementRefused extends Error {}

/** Returns the transaction hash; `submitted` records it before waiting for the receipt. Throws when not settled. */
export async function settleNow(r: PaymentRecord, d: SettleNowDeps, submitted: (tx: Hash) => Promise<void>): Promise<string> {
  if (d.settings.mode === 'facilitator' && d.facilitator) {
    const answer = await d.facilitator.settle({
      x402Version: r.x402_version,
      authorization: r.authorization,
      signature: r.signature,
      requirements: requirementOf(r, d.settings),
      resource: { url: r.resource_url, description: '', mimeType: 'application/json' },
    });
    if (answer.success && answer.transaction) return answer.transaction;
    throw new SettlementRefused(`facilitator settle refused: ${answer.errorReason ?? 'no reason given'}`);
  }
  if (!d.chain) throw new Error('no way to settle: neither X402_RPC_URL with X402_SETTLER_KEY nor X402_FACILITATOR_URL');
  let hash: Hash;
  try {
    hash = await d.chain.submitTransfer(d.settings.token.address, r.authorization, r.signature);
  } catch (err) {
    // Gas estimation ran the transfer and it reverted: nothing was sent.
    if (err instanceof BaseError && err.walk((e) => e instanceof ContractFunctionRevertedError)) throw new SettlementRefused(err.shortMessage);
    throw err;
  }
  await submitted(hash);
  const receipt = await d.chain.waitForReceipt(hash);
  if (!receipt.succeeded) throw new SettlementRefused(`the transfer transaction ${hash} reverted`);
  return hash;
}
