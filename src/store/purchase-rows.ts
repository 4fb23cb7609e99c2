// A key purchase row as both store adapters read it; only the payment column's encoding differs
// (JSON text on SQLite, jsonb already decoded on PostgreSQL), so each adapter decodes it itself.
import type { KeyPurchaseRow } from './port.js';

export interface PurchaseRecordOf<Payment> {
  id: string;
  kind: KeyPurchaseRow['kind'];
  key_id: string | null;
  wallet: string;
  micros: number;
  status: KeyPurchaseRow['status'];
  payment: Payment;
  created_at: number;
  settled_at: number | null;
}

export function toPurchaseRow(r: PurchaseRecordOf<unknown>, payment: Record<string, unknown>): KeyPurchaseRow {
  return { id: r.id, kind: r.kind, keyId: r.key_id, wallet: r.wallet, micros: r.micros, status: r.status, payment, createdAt: r.created_at, settledAt: r.settled_at };
}
