// Resolves key purchases a crash left `pending` (the process died after submitting the transfer, before
// granting the credit, or before it even submitted), or a settlement error after submission left (a receipt
// wait that failed). A recorded transaction hash whose receipt shows success is credited at once. Otherwise
// it waits until the authorization's validBefore has passed: from then on the chain's answer is final (a transfer mined later reverts), and no request of a
// live process can still be settling it. Then:
//   - authorization used on chain with a transfer to us (searched from the block recorded with the purchase)
//     → settled, credit granted once (a top-up credits its key; a new key is the one whose secret the
//     route's answer gave out, or, for purchases recorded before that, one whose secret nobody has: the
//     buyer sees it in GET /v1/keys and the operator issues a replacement, see docs/payments.md);
//   - authorization unused (it can never be used now) or used without a transfer to us → unpaid, no credit.
// Without chain access (facilitator mode without X402_RPC_URL) nothing can be checked and purchases stay
// pending for the operator.
//
// One process reconciles at a time: the holder of the store's leader lease `x402-key-purchases`
// (leader-lease.ts). The others read neither the pending purchases nor the chain for them, and take over
// within the lease's TTL when the holder dies (at once when it stops).
import type { Address, Hash, Hex } from './viem.js';
import { generateApiKey } from '../../auth/api-key.js';
import { API_KEY_PREFIX } from '../api-keys.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { SqlRunner } from '../../db/sql-runner.js';
import type { TaskStore } from '../../store/port.js';
import type { ChainAccess } from './chain.js';
import { pendingKeyPurchases, type PendingPurchase } from './pending-purchases.js';
import { asPaymentRecord, type PaymentRecord } from './payment-record.js';
import { LeaderLease, PURCHASE_RECONCILER_LEASE, type LeaderLeaseOptions } from './leader-lease.js';
import type { X402Settings } from './settings.js';

/** After validBefore, how long to wait so a transfer submitted just before it has been mined or reverted. */
const AFTER_EXPIRY_MS = 2 * 60_000;

export interface PurchaseReconcilerDeps {
  store: TaskStore;
  sql: SqlRunner;
  chain: ChainAccess | undefined;
  settings: X402Settings;
  log: Logger;
}

/** 'refund_due': paid on chain, but the top-up's key was revoked first, so nothing was credited. */
export type Resolution = 'settled' | 'refund_due' | 'unpaid' | 'waiting' | 'unchecked';

export interface PurchaseReconcilerOptions {
  /** How often the lease holder sweeps the pending purchases. */
  intervalMs?: number;
  /** The reconciliation lease's timing (leader-lease.ts). */
  lease?: LeaderLeaseOptions;
}

export class PurchaseReconciler {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private readonly log: Logger;
  private readonly intervalMs: number;
  private readonly lease: LeaderLease;

  constructor(
    private readonly d: PurchaseReconcilerDeps,
    o: PurchaseReconcilerOptions = {},
  ) {
    this.log = d.log.child({ component: 'x402-key-purchases' });
    this.intervalMs = o.intervalMs ?? 60_000;
    // Taking the lease (at start, or over from a dead holder) sweeps at once.
    this.lease = new LeaderLease(
      { store: d.store, name: PURCHASE_RECONCILER_LEASE, job: 'reconciles pending x402 key purchases', log: this.log, onGained: () => void this.sweepOnce() },
      o.lease,
    );
  }

  /** Whether this process is the one reconciling (holds the lease). */
  get leading(): boolean {
    return this.lease.held;
  }

  start(): void {
    this.lease.start();
    this.timer = setInterval(() => void this.sweepOnce(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
    await this.lease.stop();
  }

  /**
   * One pass over pending purchases by the lease holder (a no-op elsewhere); concurrent calls share the
   * pass under way. resolve() settles one purchase whoever calls it.
   */
  sweepOnce(now = Date.now()): Promise<void> {
    if (!this.lease.held) return Promise.resolve();
    this.running ??= this.sweep(now)
      .catch((err: unknown) => this.log.warn('reconciling pending key purchases failed; the next sweep retries', { err }))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async sweep(now: number): Promise<void> {
    for (const p of await pendingKeyPurchases(this.d.sql, now, 100)) {
      // A holder that lost the lease (cut off from the store past its TTL) leaves the rest to the new one.
      if (!this.lease.held) return;
      await this.resolve(p, now);
    }
  }

  async resolve(p: PendingPurchase, now = Date.now()): Promise<Resolution> {
    const record = asPaymentRecord(p.payment);
    if (!record) return 'unchecked';
    const { chain } = this.d;
    // A transfer this service submitted and saw mined is final at once; anything else waits for validBefore.
    const mined = chain && record.transaction ? await chain.receiptOf(record.transaction as Hash) : null;
    if (mined?.succeeded) return this.settle(p, record, mined.transaction, now);
    if (now < Number(record.authorization.validBefore) * 1000 + AFTER_EXPIRY_MS) return 'waiting';
    if (!chain) return 'unchecked';
    const token = this.d.settings.token.address;
    const state = await chain.payerState(token, record.authorization.from as Address, record.authorization.nonce as Hex);
    const fromBlock = record.from_block !== undefined && /^\d+$/.test(record.from_block) ? BigInt(record.from_block) : undefined;
    const transaction = state.nonceUsed ? await chain.findTransfer(token, record.authorization, fromBlock) : null;
    if (!transaction) {
      const reason = state.nonceUsed
        ? 'The authorization was used on chain without a transfer to this service (the payer cancelled it).'
        : 'The payment was never settled and its authorization has expired, so no credit was granted.';
      await this.d.store.markKeyPurchaseUnpaid(p.id, { ...p.payment, status: 'unpaid', reason, reconciled_at: new Date(now).toISOString() });
      this.log.warn('pending key purchase resolved unpaid', { purchase: p.id, wallet: p.wallet, reason });
      return 'unpaid';
    }
    return this.settle(p, record, transaction, now);
  }

  private async settle(p: PendingPurchase, record: PaymentRecord, transaction: string, now: number): Promise<Resolution> {
    const payment = { ...p.payment, status: 'settled', transaction, reconciled_at: new Date(now).toISOString() };
    const newKey = p.kind === 'create' ? (keyGivenOut(p.payment.new_key) ?? this.unseenKey(p.wallet)) : undefined;
    const settled = await this.d.store.settleKeyPurchase(p.id, { payment, ...(newKey ? { newKey } : {}), now });
    if (!settled) return 'unchecked';
    if (!settled.credited) {
      this.log.warn('pending key purchase found paid on chain, but its key was revoked: nothing credited, refund due', {
        purchase: p.id,
        key: settled.key.id,
        wallet: p.wallet,
        transaction,
      });
      return 'refund_due';
    }
    this.log.warn('pending key purchase found paid on chain: credit granted', {
      purchase: p.id,
      kind: p.kind,
      key: settled.key.id,
      wallet: p.wallet,
      payer: record.payer,
      transaction,
    });
    return 'settled';
  }

  /** A key for a recovered purchase: its secret is thrown away, since nobody can be shown it. */
  private unseenKey(wallet: string): { id: string; hash: string; prefix: string; label: string } {
    // The secret was only in the answer the crash lost: generated here and discarded.
    const { hash, prefix } = generateApiKey(API_KEY_PREFIX);
    return { id: newId('key', 6), hash, prefix, label: `bought by ${wallet} (recovered after a crash; ask the operator for a replacement)` };
  }
}

/** The key a purchase's answer gave out (its secret went to the buyer; only its hash is kept). */
function keyGivenOut(v: unknown): { id: string; hash: string; prefix: string; label: string | null } | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const k = v as Record<string, unknown>;
  if (typeof k.id !== 'string' || typeof k.hash !== 'string' || typeof k.prefix !== 'string') return undefined;
  return { id: k.id, hash: k.hash, prefix: k.prefix, label: typeof k.label === 'string' ? k.label : null };
}
