// The payment kept on a task (TaskRow.payment, shown as `payment` on the task object): who paid, how
// much, where the settlement stands, and the signed authorization settlement submits.
import type { Hex } from './viem.js';
import type { X402Settings } from './settings.js';
import type { Authorization, PaymentRequirements } from './wire.js';

export type PaymentStatus = 'pending' | 'settled' | 'unpaid' | 'void';

export interface PaymentRecord {
  /** pending: authorized, waiting for the task; settled: transferred; unpaid: settlement gave up; void: task did not complete, nothing charged. */
  status: PaymentStatus;
  scheme: 'exact';
  x402_version: 1 | 2;
  network: string;
  asset: string;
  pay_to: string;
  payer: string;
  /** Atomic units of the asset (USDC: micro-USD). */
  amount: string;
  amount_usd: string;
  valid_before: string;
  /** Settlement transaction hash (set once submitted). */
  transaction: string | null;
  settled_at?: string;
  /** Why the payment ended unpaid or void. */
  reason?: string;
  settle_attempts?: number;
  last_error?: string;
  resource_url: string;
  /** accepts[].maxTimeoutSeconds offered when the payment was accepted. */
  max_timeout_seconds: number;
  authorization: Authorization;
  signature: Hex;
  /** Key purchases: a block read before the transfer could be submitted, where the reconciler's search starts. */
  from_block?: string;
}

export function asPaymentRecord(payment: Record<string, unknown> | null): PaymentRecord | null {
  if (!payment || payment.scheme !== 'exact' || typeof payment.status !== 'string' || typeof payment.authorization !== 'object') return null;
  return payment as unknown as PaymentRecord;
}

/** The requirement this payment was accepted against (for a facilitator's /settle). */
export function requirementOf(r: PaymentRecord, s: X402Settings): PaymentRequirements {
  return {
    scheme: 'exact',
    network: r.network,
    asset: r.asset as PaymentRequirements['asset'],
    amount: r.amount,
    payTo: r.pay_to as PaymentRequirements['payTo'],
    maxTimeoutSeconds: r.max_timeout_seconds,
    extra: { name: s.token.name, version: s.token.version },
  };
}
