// A mistake in how a command was called: printed as is, exit code 2.
export class CliUsageError extends Error {}

// The command could not do its job for a reason that is not how it was called (the service refused,
// credits ran out): printed as is, exit code 1.
export class CliFailure extends Error {}

/** "12.5" → 12500000 micro-USD, refusing anything that is not a plain non-negative decimal. */
export function parseUsdArg(value: string | undefined, what: string): number {
  if (value === undefined || !/^\d+(\.\d{1,6})?$/.test(value)) {
    throw new CliUsageError(`${what} must be a USD amount such as 10 or 2.50 (got ${value ?? 'nothing'}).`);
  }
  const [whole, frac = ''] = value.split('.');
  return Number(whole) * 1_000_000 + Number(frac.padEnd(6, '0'));
}
