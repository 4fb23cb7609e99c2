// The x402 wire format (v2, and v1's X-PAYMENT where it is the same authorization): header names,
// base64 JSON encoding, and the shapes of PaymentRequired and of an exact-scheme EVM payment payload.
import type { Address, Hex } from './viem.js';
import { z } from 'zod';
import { uint256Problem } from './wire-numbers.js';

export const HEADER = {
  paymentRequired: 'PAYMENT-REQUIRED',
  paymentSignature: 'PAYMENT-SIGNATURE',
  paymentV1: 'X-PAYMENT',
  signIn: 'SIGN-IN-WITH-X',
} as const;

export interface ResourceInfo {
  url: string;
  description: string;
  mimeType: string;
}

export interface PaymentRequirements {
  scheme: 'exact';
  network: string;
  asset: Address;
  /** Atomic units of the asset (USDC: 6 decimals, so micro-USD). */
  amount: string;
  payTo: Address;
  maxTimeoutSeconds: number;
  /** EIP-712 domain of the asset, which the payer signs against. */
  extra: { name: string; version: string };
}

export interface PaymentRequired {
  x402Version: 2;
  error?: string;
  resource: ResourceInfo;
  accepts: PaymentRequirements[];
  extensions?: Record<string, unknown>;
}

export interface Authorization {
  from: Address;
  to: Address;
  value: string;
  validAfter: string;
  validBefore: string;
  nonce: Hex;
}

/** A payment header, decoded and shape-checked; nothing about it is trusted yet. */
export interface DecodedPayment {
  x402Version: 1 | 2;
  scheme: string;
  network: string;
  /** v2 only: what the client says it accepted. */
  accepted?: { asset: string; amount: string; payTo: string };
  authorization: Authorization;
  signature: Hex;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

export function decodeBase64Json(value: string): unknown {
  const trimmed = value.trim();
  if (!BASE64.test(trimmed)) throw new Error('is not base64');
  return JSON.parse(Buffer.from(trimmed, 'base64').toString('utf8'));
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address');
const uint = z.string().superRefine((text, ctx) => {
  const problem = uint256Problem(text);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const authorization = z.object({
  from: address,
  to: address,
  value: uint,
  validAfter: uint,
  validBefore: uint,
  nonce: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex string'),
});
const exactEvmPayload = z.object({
  authorization,
  signature: z.string().regex(/^0x([0-9a-fA-F]{2})+$/, 'must be 0x-prefixed hex'),
});
const v2Payload = z.object({
  x402Version: z.literal(2),
  accepted: z.object({ scheme: z.string(), network: z.string(), asset: z.string(), amount: uint, payTo: z.string() }),
  payload: exactEvmPayload,
});
const v1Payload = z.object({
  x402Version: z.literal(1),
  scheme: z.string(),
  network: z.string(),
  payload: exactEvmPayload,
});

/** Decodes PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1); throws an Error whose message says what is wrong. */
export function decodePaymentHeader(value: string): DecodedPayment {
  let raw: unknown;
  try {
    raw = decodeBase64Json(value);
  } catch (err) {
    throw new Error(`the payment header is not base64-encoded JSON (${(err as Error).message})`);
  }
  const version = (raw as { x402Version?: unknown } | null)?.x402Version;
  const parsed = version === 1 ? v1Payload.safeParse(raw) : v2Payload.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`the payment payload is malformed: ${issue ? `${issue.path.join('.') || '(root)'} ${issue.message}` : 'unknown shape'}`);
  }
  const p = parsed.data;
  const auth = p.payload.authorization;
  const common = {
    authorization: { ...auth, from: auth.from as Address, to: auth.to as Address, nonce: auth.nonce as Hex },
    signature: p.payload.signature as Hex,
  };
  if (p.x402Version === 1) return { x402Version: 1, scheme: p.scheme, network: p.network, ...common };
  return {
    x402Version: 2,
    scheme: p.accepted.scheme,
    network: p.accepted.network,
    accepted: { asset: p.accepted.asset, amount: p.accepted.amount, payTo: p.accepted.payTo },
    ...common,
  };
}
