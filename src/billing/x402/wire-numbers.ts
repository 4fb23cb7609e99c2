// Strict reading of the numbers in an x402 payment (EIP-3009 value, validAfter, validBefore, the accepted
// amount): they are uint256 on chain, so anything BigInt() would also take (leading zeros, "0x…", signs,
// spaces, values past 2^256) is refused rather than silently normalised into a different signed value.

export const UINT256_MAX = (1n << 256n) - 1n;

/** Latest time we turn into a date (9999-12-31T23:59:59Z); later EIP-3009 times are valid uint256 but not dates. */
export const MAX_DATE_SECONDS = 253_402_300_799n;

const CANONICAL_DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Why `text` is not a canonical uint256 decimal string, or undefined when it is one. */
export function uint256Problem(text: string): string | undefined {
  if (!CANONICAL_DECIMAL.test(text)) return 'must be a decimal integer string: digits only, without sign, spaces, exponent or leading zeros';
  // 2^256 has 78 digits: a longer string is out of range without building the BigInt.
  if (text.length > 78 || BigInt(text) > UINT256_MAX) return 'is larger than a uint256';
  return undefined;
}

/** Unix seconds as an ISO date, or as plain seconds when too far out for a Date. */
export function secondsToText(seconds: bigint): string {
  return seconds <= MAX_DATE_SECONDS ? new Date(Number(seconds) * 1000).toISOString() : `${seconds} (Unix seconds, past year 9999)`;
}
