// Which half of a query set a query belongs to, for benches that tune on one half and report the other.
// FNV-1a of the query text: the split does not depend on the order or the mix of the sources.

/** 'tuning' or 'held out', stable for a given query. */
export function queryHalf(query) {
  let h = 0x811c9dc5;
  for (const ch of query) h = Math.imul(h ^ ch.codePointAt(0), 0x01000193) >>> 0;
  return h % 2 === 0 ? 'tuning' : 'held out';
}

/** a of b as a percentage with one decimal, or a dash when b is 0. */
export const pct = (a, b) => (b === 0 ? '—' : `${((100 * a) / b).toFixed(1)}%`);
