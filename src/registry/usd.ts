// Prices as exact decimal strings and integer micro-USD. A leaf: config.ts reads the x402 key limits with
// it, and the registry (which depends on config's types) prices tools with it.
/** "0.005" USD → 5000 micro-USD, exactly (no floating point). */
export function usdToMicros(usd: string): number {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(usd.trim());
  if (!m) throw new Error(`invalid USD amount "${usd}" (use a decimal with at most 6 places)`);
  return Number(m[1]) * 1_000_000 + Number((m[2] ?? '').padEnd(6, '0'));
}

export function microsToUsd(micros: number): string {
  const sign = micros < 0 ? '-' : '';
  const abs = Math.abs(micros);
  const whole = Math.floor(abs / 1_000_000);
  const frac = String(abs % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}
