// Reading column values out of driver rows, shared by the SQLite and PostgreSQL lead stores (each keeps
// its own row → record mappers, since JSON and booleans come back differently from the two drivers).
export type Row = Record<string, unknown>;

export const str = (v: unknown): string => String(v);
export const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
export const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
