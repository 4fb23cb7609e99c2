// Small numeric helpers shared by the tables built from the data packages.

/** The median, not the mean: one mis-placed member of a group must not drag the group's point away. */
export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** A coordinate to four decimals (about 11 m): what a built table stores. */
export function roundTo4(v: number): number {
  return Math.round(v * 1e4) / 1e4;
}
