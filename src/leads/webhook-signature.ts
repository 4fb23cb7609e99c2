// Webhook signatures: HMAC-SHA256 over "<timestamp>.<raw body>" with the pro's secret, sent as
//   X-Leads-Timestamp: <unix seconds>
//   X-Leads-Signature: v1=<hex digest>
// The timestamp inside the signed text lets a receiver reject replays older than a few minutes.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Leads-Signature';
export const TIMESTAMP_HEADER = 'X-Leads-Timestamp';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function signWebhook(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** What a receiver does (also documented in docs/leads.md): recompute, compare in constant time, check age. */
export function verifyWebhook(
  secret: string,
  headers: { timestamp: string | undefined; signature: string | undefined },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSeconds - ts) > toleranceSeconds || !headers.signature) return false;
  const expected = Buffer.from(signWebhook(secret, ts, body));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
