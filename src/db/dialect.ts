// What differs between SQLite and PostgreSQL in SQL that is otherwise written once. Queries are written
// with PostgreSQL's numbered placeholders ($1, $2, a number may repeat); the SQLite connection rewrites
// them (see sqlite.ts). Everything else a shared query needs goes through one of these small pieces, so
// one SQL text serves both dialects and the per-dialect code is left to operations whose concurrency
// really differs (claims, charges, nonce reservations).
//
// Some things need no entry because both dialects spell them the same: insert-or-ignore and upsert
// (`ON CONFLICT (…) DO NOTHING` / `DO UPDATE SET c = excluded.c`, SQLite ≥ 3.24), `RETURNING` (≥ 3.35),
// `json->>'field'` (≥ 3.38), and TRUE/FALSE literals.

export type DialectName = 'sqlite' | 'postgres';

export interface Dialect {
  readonly name: DialectName;
  /** A value for a JSON column: SQLite stores text; PostgreSQL takes text too (pg would turn an array into an array literal). */
  json(v: unknown): string;
  /** A JSON column as read: SQLite returns the text, pg has already parsed json/jsonb. */
  fromJson<T = unknown>(v: unknown): T;
  /** A boolean parameter (SQLite has no boolean type; better-sqlite3 refuses JS booleans). */
  bool(b: boolean): boolean | number;
  /** A boolean column as read (0/1 on SQLite). */
  fromBool(v: unknown): boolean;
  /** A plain text parameter: PostgreSQL text cannot hold NUL, so it is dropped there (JSON keeps it escaped). */
  text<T extends string | null>(s: T): T;
  /** `column` is one of the values of an array parameter (pass the array through `array`). */
  inArray(column: string, param: string): string;
  /** An array parameter for `inArray`. */
  array(values: readonly string[]): unknown;
  /** The larger of two expressions. */
  greatest(a: string, b: string): string;
  /** The smaller of two expressions. */
  least(a: string, b: string): string;
  /** A millisecond epoch expression as its UTC day, YYYY-MM-DD. */
  utcDay(msExpr: string): string;
  /** The size in bytes of a JSON column's text (null stays null), so a read can budget before it selects it. */
  jsonBytes(column: string): string;
  /**
   * The store's clock in epoch ms, as an expression: the statement's start on PostgreSQL's server (one clock
   * for every node, whatever their own clocks say), the machine's clock on SQLite (one machine).
   */
  readonly nowMs: string;
  /** Appended to a SELECT inside a transaction: lock the rows read (SQLite's transaction holds the write lock). */
  readonly forUpdate: string;
  /** Appended to a SELECT inside a transaction: lock the rows read, passing over rows others hold. */
  readonly skipLocked: string;
}

const parseJson = <T>(v: unknown): T => (v === null || v === undefined ? (null as T) : (JSON.parse(v as string) as T));
const stringify = (v: unknown): string => JSON.stringify(v ?? null);

export const sqlite: Dialect = {
  name: 'sqlite',
  json: stringify,
  fromJson: parseJson,
  bool: (b) => (b ? 1 : 0),
  fromBool: (v) => v === 1 || v === true,
  text: (s) => s,
  inArray: (column, param) => `${column} IN (SELECT value FROM json_each(${param}))`,
  array: (values) => JSON.stringify(values),
  greatest: (a, b) => `MAX(${a}, ${b})`,
  least: (a, b) => `MIN(${a}, ${b})`,
  utcDay: (ms) => `strftime('%Y-%m-%d', ${ms} / 1000, 'unixepoch')`,
  jsonBytes: (column) => `length(CAST(${column} AS BLOB))`,
  // 'now' is fixed for the statement; julianday keeps milliseconds (unixepoch('subsec') needs 3.42).
  nowMs: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
  // The transaction holds the whole database's write lock already.
  forUpdate: '',
  skipLocked: '',
};

export const postgres: Dialect = {
  name: 'postgres',
  json: stringify,
  fromJson: <T>(v: unknown) => (v ?? null) as T,
  bool: (b) => b,
  fromBool: (v) => v === true,
  text: <T extends string | null>(s: T) => (s === null ? s : (s.replace(/\0/g, '') as T)),
  inArray: (column, param) => `${column} = ANY(${param}::text[])`,
  array: (values) => values,
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  least: (a, b) => `LEAST(${a}, ${b})`,
  utcDay: (ms) => `to_char(to_timestamp(${ms} / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
  jsonBytes: (column) => `octet_length(${column}::text)`,
  nowMs: '(extract(epoch FROM statement_timestamp()) * 1000)::bigint',
  forUpdate: ' FOR UPDATE',
  skipLocked: ' FOR UPDATE SKIP LOCKED',
};
