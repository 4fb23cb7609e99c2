// x402 payments (tasks paid by wallet, settled after they finish; API keys bought or topped up with a
// payment) and SIWX sign-in nonces. A payment nonce is used once: by one task or one purchase.
import type { ApiKeyRow, NewApiKey } from './keys-port.js';
import type { TaskRow } from './task-row.js';

/** A task as the settlement sweep sees it: everything but its input and result (which it never uses). */
export type UnsettledTask = Omit<TaskRow, 'input' | 'result'>;

/** Where the next page of unsettled payments starts: after this task in (finishedAt, id) order. */
export interface UnsettledCursor {
  finishedAt: number;
  id: string;
}

/** A self-serve key purchase or top-up paid with x402 (see docs/payments.md, "Buying an API key"). */
export interface KeyPurchaseRow {
  id: string;
  kind: 'create' | 'topup';
  /** Null until a 'create' purchase settles and its key exists. */
  keyId: string | null;
  /** Lower-case wallet address that paid. */
  wallet: string;
  micros: number;
  status: 'pending' | 'settled' | 'unpaid';
  payment: Record<string, unknown>;
  createdAt: number;
  settledAt: number | null;
}

/** A purchase to reserve; its `keyId` is the key to top up ('topup' only). */
export interface NewKeyPurchase extends Pick<KeyPurchaseRow, 'id' | 'kind' | 'keyId' | 'wallet' | 'micros' | 'payment'> {
  nonce: { network: string; asset: string; payer: string; nonce: string };
  now: number;
}

export interface SettleKeyPurchase {
  payment: Record<string, unknown>;
  /** The key a 'create' purchase makes. */
  newKey?: Pick<NewApiKey, 'id' | 'hash' | 'prefix' | 'label'>;
  now: number;
}

export interface PaymentStore {
  setPayment(id: string, payment: Record<string, unknown>): Promise<void>;
  /**
   * Replaces the payment only while it is `pending`; false (and nothing written) once it has ended: settled,
   * unpaid or void. Settlement writes through this, so an outcome is recorded, and counted, once.
   */
  updatePendingPayment(id: string, payment: Record<string, unknown>): Promise<boolean>;
  /**
   * Tasks that finished before `finishedBefore` with their payment still `pending` (to settle or void), oldest
   * first; never their input or result. `after` continues from the last task of the previous page.
   */
  listUnsettledPayments(finishedBefore: number, limit: number, after?: UnsettledCursor): Promise<UnsettledTask[]>;
  /**
   * The amounts (token units, as decimal strings) of the still `pending` payments among the `lookback` latest
   * x402 tasks of wallet `payer` (its id as the gate records it); what an x402 creation checks the balance against.
   */
  pendingPaymentAmounts(payer: string, lookback: number): Promise<string[]>;
  /**
   * SIWX: records a sign-in nonce as used; false when it was used before (a replay). Kept in payment_nonces
   * under network 'siwx' (the single-use table x402 nonces live in); entries created before `forgetBefore`
   * are deleted on the way, since their messages have expired.
   */
  useSignInNonce(nonce: string, now: number, forgetBefore: number): Promise<boolean>;
  /** The console's session epoch (ms): a console session issued before it is signed out. 0 when never set. */
  consoleSessionEpoch(): Promise<number>;
  /** "Sign out": moves the console's session epoch to `at` (never back). */
  endConsoleSessions(at: number): Promise<void>;
  /** Records a pending purchase and reserves its payment nonce in one transaction (one signature, one purchase). */
  reserveKeyPurchase(p: NewKeyPurchase): Promise<{ kind: 'reserved'; purchase: KeyPurchaseRow } | { kind: 'nonce_used'; usedBy: string }>;
  /**
   * Pending → settled, granting the credit once: a 'create' purchase inserts `newKey` with the amount as its
   * balance, a 'topup' credits its key if it is still live. Null when the purchase is not pending (already
   * settled or unpaid). `credited` false: the top-up's key was revoked (in the same transaction's view, so
   * a revocation racing it either comes first and wins, or comes after the credit); the purchase is settled
   * with `refund_due: true` in its payment record and nothing was credited.
   */
  settleKeyPurchase(id: string, o: SettleKeyPurchase): Promise<{ purchase: KeyPurchaseRow; key: ApiKeyRow; credited: boolean } | null>;
  /** Pending → unpaid (the payment could not be settled); no credit is granted. */
  markKeyPurchaseUnpaid(id: string, payment: Record<string, unknown>): Promise<void>;
  /** Replaces a still-pending purchase's payment record (its transaction hash once submitted); no-op otherwise. */
  noteKeyPurchasePayment(id: string, payment: Record<string, unknown>): Promise<void>;
  /** A wallet's purchases, newest first. */
  listKeyPurchases(wallet: string, limit: number): Promise<KeyPurchaseRow[]>;
}
