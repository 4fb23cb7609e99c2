// A batch row as both store adapters read it (the same columns and types on both dialects).
import type { BatchRow, Payer } from './port.js';

export interface BatchRecord {
  id: string;
  tool: string;
  payer_kind: Payer['kind'];
  payer_id: string | null;
  total: number;
  unique_count: number;
  price_micros: number;
  created_at: number;
}

export function toBatch(r: BatchRecord): BatchRow {
  return {
    id: r.id,
    tool: r.tool,
    payer: { kind: r.payer_kind, id: r.payer_id },
    total: r.total,
    unique: r.unique_count,
    priceMicros: r.price_micros,
    createdAt: r.created_at,
  };
}
