// A signed EIP-3009 authorization of the local chain's USDC (Base's address and domain), as an x402 payer
// signs one: for tests and benches that settle transfers through ChainAccess without the x402 client.
import { generatePrivateKey, type PrivateKeyAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { transferWithAuthorizationTypes } from '../../src/billing/x402/token-abi.js';
import type { Authorization } from '../../src/billing/x402/wire.js';
import { BASE_USDC, CHAIN_ID } from './local-chain.js';

export interface SignedAuthorization {
  authorization: Authorization;
  signature: Hex;
}

/** `payer`'s authorization of `value` to `payTo`, valid from a minute ago for `validForSeconds`, with a fresh nonce. */
export async function signUsdcAuthorization(payer: PrivateKeyAccount, payTo: Hex, value: bigint, validForSeconds = 600): Promise<SignedAuthorization> {
  const now = Math.floor(Date.now() / 1000);
  const authorization: Authorization = {
    from: payer.address,
    to: payTo,
    value: String(value),
    validAfter: String(now - 60),
    validBefore: String(now + validForSeconds),
    nonce: generatePrivateKey(),
  };
  const signature = await payer.signTypedData({
    domain: { name: 'USD Coin', version: '2', chainId: CHAIN_ID, verifyingContract: BASE_USDC },
    types: transferWithAuthorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: { ...authorization, value, validAfter: BigInt(authorization.validAfter), validBefore: BigInt(authorization.validBefore) },
  });
  return { authorization, signature };
}
