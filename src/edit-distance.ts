// How many one-letter edits apart two strings are: e-mail domains' typos (email/typo.ts) and source data's
// misspelt region names (geo/place/gazetteer.ts) are both judged by it.

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps cost 1. */
export function editDistance(a: string, b: string): number {
  const cols = b.length + 1;
  // Three rolling rows: the swap rule looks two rows back.
  let prev2 = new Uint16Array(cols);
  let prev = Uint16Array.from({ length: cols }, (_, j) => j);
  let row = new Uint16Array(cols);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      row[j] = v;
    }
    [prev2, prev, row] = [prev, row, prev2];
  }
  return prev[cols - 1]!;
}
