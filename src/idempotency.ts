// Idempotency-Key handling shared by the task service and the lead service: one rule for the header, and
// one canonical hash of the validated request that a replay must match.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InvalidInput } from './errors.js';

const idempotencyKey = z
  .string()
  .min(1)
  .max(255, 'must be at most 255 characters')
  .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

/** The Idempotency-Key header's value (undefined when absent), or a 400 naming the header. */
export function parseIdempotencyKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const parsed = idempotencyKey.safeParse(raw);
  if (!parsed.success) throw new InvalidInput(`Idempotency-Key ${parsed.error.issues[0]?.message}`, 'Idempotency-Key');
  return parsed.data;
}

/** Canonical hash of a request for idempotency (key order does not matter); `input` is validated, so shallow. */
export function requestHash(scope: string, input: unknown): string {
  return createHash('sha256')
    .update(scope)
    .update('\0')
    .update(canonicalJson(input ?? {}))
    .digest('hex');
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
