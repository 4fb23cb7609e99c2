// Checks an x402 payment header against what this tool costs, before the task is accepted: shape,
// scheme, network, asset, recipient, exact amount, validity window, the EIP-712 signature of the
// EIP-3009 authorization, then on chain (or at the facilitator) the payer's balance and whether the
// authorization was already used. Each refusal names what to change.
import { getAddress, size, type Address } from './viem.js';
import { ServiceUnavailable } from '../../errors.js';
import type { AnyTool } from '../../registry/define-tool.js';
import { microsToUsd, priceRule } from '../../registry/registry.js';
import type { ChainAccess, PayerState } from './chain.js';
import type { FacilitatorClient } from './facilitator.js';
import type { PaymentRecord } from './payment-record.js';
import { requirementFor } from './requirements.js';
import { minWindowSeconds, type X402Settings } from './settings.js';
import { hasHighS } from './signature-s.js';
import { transferWithAuthorizationTypes } from './token-abi.js';
import { typedSignatures } from './typed-signature.js';
import { V1_NETWORK_NAMES } from './tokens.js';
import { decodePaymentHeader, type DecodedPayment, type PaymentRequirements } from './wire.js';
import { secondsToText } from './wire-numbers.js';

/** A payment we will not accept; `reason` is x402's machine-readable code, `code` ours. */
export class PaymentRefusal extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentRefusal';
  }
}

export interface VerifierDeps {
  settings: X402Settings;
  chain?: ChainAccess | undefined;
  facilitator?: FacilitatorClient | undefined;
  /** Atomic units this payer already authorized for tasks whose settlement is still pending (sum), and the most that can be (bound). */
  pendingOf?: { sum: (payer: Address) => Promise<bigint>; bound: bigint } | undefined;
}

/** The validity window must leave this much time for the transfer to be mined (x402 uses 6 s). */
const EXPIRY_MARGIN_SECONDS = 6;

/**
 * How far past the offered window (now + maxTimeoutSeconds) validBefore may lie: clocks disagree (the
 * official v1 client backdates validAfter by as much). Beyond it the window is refused: settlement is
 * retried until validBefore, which must therefore be a time, not "forever".
 */
const CLOCK_SKEW_SECONDS = 600;

export async function verifyPayment(tool: AnyTool, header: string, resourceUrl: string, d: VerifierDeps, nowMs = Date.now()): Promise<PaymentRecord> {
  const s = d.settings;
  const req = requirementFor(tool, s);
  let p: DecodedPayment;
  try {
    p = decodePaymentHeader(header);
  } catch (err) {
    throw new PaymentRefusal(
      'PAYMENT_MALFORMED',
      'invalid_payload',
      `The payment header could not be read: ${(err as Error).message}. Send the base64 JSON PaymentPayload the x402 client builds.`,
    );
  }
  if (p.scheme !== 'exact') {
    throw new PaymentRefusal('PAYMENT_SCHEME_UNSUPPORTED', 'invalid_exact_evm_scheme', `Scheme "${p.scheme}" is not accepted; pay with scheme "exact".`);
  }
  const network = p.x402Version === 1 ? (V1_NETWORK_NAMES[p.network] ?? p.network) : p.network;
  if (network !== s.network) {
    throw new PaymentRefusal('PAYMENT_WRONG_NETWORK', 'invalid_exact_evm_network_mismatch', `The payment is for network ${p.network}; pay on ${s.network}.`);
  }
  if (p.accepted && p.accepted.asset.toLowerCase() !== s.token.address.toLowerCase()) {
    throw new PaymentRefusal(
      'PAYMENT_WRONG_ASSET',
      'invalid_exact_evm_asset_mismatch',
      `The payment is in asset ${p.accepted.asset}; pay in ${s.token.symbol} at ${s.token.address}.`,
    );
  }
  const auth = p.authorization;
  if (getAddress(auth.to) !== s.payTo) {
    throw new PaymentRefusal(
      'PAYMENT_WRONG_RECIPIENT',
      'invalid_exact_evm_recipient_mismatch',
      `The authorization pays ${auth.to}; it must pay ${s.payTo} (accepts[0].payTo).`,
    );
  }
  if (BigInt(auth.value) !== BigInt(req.amount)) {
    throw new PaymentRefusal(
      'PAYMENT_WRONG_AMOUNT',
      'invalid_exact_evm_payload_authorization_value_mismatch',
      `The authorization is for ${auth.value} atomic units; ${tool.name} costs exactly ${req.amount} (${tool.price} ${s.token.symbol})${forThisInput(tool)}. Sign a new authorization for that amount.`,
    );
  }
  if (p.accepted && p.accepted.amount !== req.amount) {
    throw new PaymentRefusal(
      'PAYMENT_WRONG_AMOUNT',
      'invalid_exact_evm_payload_authorization_value_mismatch',
      `The payment accepted an amount of ${p.accepted.amount}; ${tool.name} costs exactly ${req.amount} (${tool.price} ${s.token.symbol})${forThisInput(tool)}. Use accepts[0] as offered.`,
    );
  }
  const now = BigInt(Math.floor(nowMs / 1000));
  if (BigInt(auth.validAfter) > now) {
    throw new PaymentRefusal(
      'PAYMENT_NOT_YET_VALID',
      'invalid_exact_evm_payload_authorization_valid_after',
      `The authorization is valid only from ${secondsToText(BigInt(auth.validAfter))}; use validAfter 0 or a time in the past.`,
    );
  }
  const validBefore = BigInt(auth.validBefore);
  const minWindow = BigInt(minWindowSeconds(tool.timeoutMs, s));
  if (validBefore <= now + BigInt(EXPIRY_MARGIN_SECONDS)) {
    throw new PaymentRefusal(
      'PAYMENT_EXPIRED',
      'invalid_exact_evm_payload_authorization_valid_before',
      `The authorization expired at ${secondsToText(validBefore)}; sign a new one with validBefore = now + ${req.maxTimeoutSeconds} s (accepts[0].maxTimeoutSeconds).`,
    );
  }
  if (validBefore < now + minWindow) {
    throw new PaymentRefusal(
      'PAYMENT_WINDOW_TOO_SHORT',
      'invalid_exact_evm_payload_authorization_valid_before',
      `The authorization expires in ${validBefore - now} s, too soon to run ${tool.name} and settle after it completes (needs at least ${minWindow} s); sign with validBefore = now + ${req.maxTimeoutSeconds} s.`,
    );
  }
  const maxWindow = BigInt(req.maxTimeoutSeconds + CLOCK_SKEW_SECONDS);
  if (validBefore > now + maxWindow) {
    throw new PaymentRefusal(
      'PAYMENT_WINDOW_TOO_LONG',
      'invalid_exact_evm_payload_authorization_valid_before',
      `The authorization is valid until ${secondsToText(validBefore)}, more than ${maxWindow} s from now; sign with validBefore = now + ${req.maxTimeoutSeconds} s (accepts[0].maxTimeoutSeconds).`,
    );
  }

  const from = getAddress(auth.from);
  const domain = { name: s.token.name, version: s.token.version, chainId: s.chainId, verifyingContract: s.token.address };
  const message = { from, to: getAddress(auth.to), value: BigInt(auth.value), validAfter: BigInt(auth.validAfter), validBefore, nonce: auth.nonce };
  if (hasHighS(p.signature)) {
    throw new PaymentRefusal(
      'PAYMENT_SIGNATURE_HIGH_S',
      'invalid_exact_evm_signature',
      'The signature has a high s value (EIP-2), which the token refuses on chain; sign again with a standard signer (they produce low-s signatures).',
    );
  }
  // The chain read does not depend on the signature: start it now so the two overlap.
  const onChain = s.mode === 'self' && d.chain ? outcome(d.chain.payerState(s.token.address, from, auth.nonce)) : undefined;
  // viem's verifyTypedData's answer, the key recovered in WebAssembly (typed-signature.ts).
  let signed = await typedSignatures
    .verify({
      address: from,
      domain,
      types: transferWithAuthorizationTypes,
      primaryType: 'TransferWithAuthorization',
      message,
      signature: p.signature,
    })
    .catch(() => false);
  // A smart-contract wallet signs differently (ERC-1271); only the chain can check that.
  if (!signed && size(p.signature) !== 65 && d.chain) {
    signed = await d.chain.verifyTypedDataOnChain(from, domain, message, p.signature).catch(() => false);
  }
  if (!signed) {
    throw new PaymentRefusal(
      'PAYMENT_BAD_SIGNATURE',
      'invalid_exact_evm_signature',
      `The signature does not match this authorization from ${from} (EIP-712 domain "${s.token.name}" version ${s.token.version}, chain ${s.chainId}, contract ${s.token.address}).`,
    );
  }

  const record: PaymentRecord = {
    status: 'pending',
    scheme: 'exact',
    x402_version: p.x402Version,
    network: s.network,
    asset: s.token.address,
    pay_to: s.payTo,
    payer: from,
    amount: req.amount,
    amount_usd: tool.price,
    valid_before: secondsToText(validBefore),
    transaction: null,
    resource_url: resourceUrl,
    max_timeout_seconds: req.maxTimeoutSeconds,
    authorization: { ...auth, from, to: getAddress(auth.to) },
    signature: p.signature,
  };
  if (s.mode === 'facilitator' && d.facilitator) await checkWithFacilitator(d.facilitator, record, req, tool);
  else if (onChain) await checkOnChain(await onChain, record, tool, s, d);
  return record;
}

/** For a tool whose price depends on the input: which price applies, so a payment for another input's price is understood. */
function forThisInput(tool: AnyTool): string {
  const { rule } = priceRule(tool);
  return rule ? ` for this input (${rule})` : '';
}

/** A promise that never rejects, so starting it early cannot leave an unhandled rejection. */
function outcome<T>(p: Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  return p.then(
    (value) => ({ ok: true as const, value }),
    () => ({ ok: false as const }),
  );
}

async function checkOnChain(
  read: { ok: true; value: PayerState } | { ok: false },
  r: PaymentRecord,
  tool: AnyTool,
  s: X402Settings,
  d: VerifierDeps,
): Promise<void> {
  if (!read.ok) throw new ServiceUnavailable('The payment could not be checked on chain just now; retry in a few seconds.', 'PAYMENT_CHECK_UNAVAILABLE');
  const state = read.value;
  if (state.nonceUsed) {
    throw new PaymentRefusal(
      'PAYMENT_REPLAYED',
      'invalid_exact_evm_nonce_already_used',
      'This authorization was already used on chain; sign a new one (a fresh nonce).',
    );
  }
  // Earlier tasks of this payer are settled only when they complete: their amounts are spoken for.
  // Looked up only when the balance could be short of them (a wallet this rich cannot be).
  const amount = BigInt(r.amount);
  const pending = d.pendingOf && state.balance < amount + d.pendingOf.bound ? await d.pendingOf.sum(r.payer as Address) : 0n;
  if (state.balance < amount + pending) {
    const usd = (atomic: bigint) => microsToUsd(Number(atomic / 10n ** BigInt(s.token.decimals - 6)));
    throw new PaymentRefusal(
      'PAYMENT_INSUFFICIENT_BALANCE',
      'invalid_exact_evm_insufficient_balance',
      `${r.payer} holds ${usd(state.balance)} ${s.token.symbol}${pending > 0n ? `, of which ${usd(pending)} is committed to earlier tasks not yet settled` : ''}; ${tool.name} costs ${tool.price}. Fund the wallet and sign again.`,
    );
  }
}

/** x402 facilitator reasons that mean the same as ours. */
const FACILITATOR_CODES: Record<string, string> = {
  invalid_exact_evm_insufficient_balance: 'PAYMENT_INSUFFICIENT_BALANCE',
  insufficient_funds: 'PAYMENT_INSUFFICIENT_BALANCE',
  invalid_exact_evm_nonce_already_used: 'PAYMENT_REPLAYED',
  invalid_exact_evm_signature: 'PAYMENT_BAD_SIGNATURE',
};

async function checkWithFacilitator(f: FacilitatorClient, r: PaymentRecord, requirements: PaymentRequirements, tool: AnyTool): Promise<void> {
  let answer;
  try {
    answer = await f.verify({
      x402Version: r.x402_version,
      authorization: r.authorization,
      signature: r.signature,
      requirements,
      resource: { url: r.resource_url, description: tool.title, mimeType: 'application/json' },
    });
  } catch {
    throw new ServiceUnavailable('The payment facilitator could not be reached just now; retry in a few seconds.', 'PAYMENT_CHECK_UNAVAILABLE');
  }
  if (!answer.isValid) {
    const reason = answer.invalidReason ?? 'invalid_payment';
    throw new PaymentRefusal(
      FACILITATOR_CODES[reason] ?? 'PAYMENT_REFUSED',
      reason,
      `The payment facilitator refused this payment (${reason}${answer.invalidMessage ? `: ${answer.invalidMessage}` : ''}).`,
    );
  }
}
