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

/**
 * The Markdown table of a halves bench: per category, queries and right answers in each half, the totals,
 * and the share right among answers at confidence ≥ 0.7 (`high`, counted per half).
 */
export function halvesTable(table, high) {
  const total = (h) => [...table.values()].reduce((s, row) => ({ n: s.n + row[h].n, right: s.right + row[h].right }), { n: 0, right: 0 });
  const t = total('tuning');
  const held = total('held out');
  return [
    '| category | tuning: queries | right | held out: queries | right |',
    '|---|---:|---:|---:|---:|',
    ...[...table].map(
      ([name, row]) =>
        `| ${name} | ${row.tuning.n} | ${pct(row.tuning.right, row.tuning.n)} | ${row['held out'].n} | ${pct(row['held out'].right, row['held out'].n)} |`,
    ),
    `| **all** | ${t.n} | **${pct(t.right, t.n)}** | ${held.n} | **${pct(held.right, held.n)}** |`,
    '',
    `Right at confidence ≥ 0.7: tuning ${pct(high.tuning.right, high.tuning.n)} of ${high.tuning.n}, held out ${pct(high['held out'].right, high['held out'].n)} of ${high['held out'].n}.`,
  ];
}

/** Counts of a halves bench: per category and half, queries and right answers; and the same at confidence ≥ 0.7. */
export function halvesTally() {
  const table = new Map();
  const high = { tuning: { n: 0, right: 0 }, 'held out': { n: 0, right: 0 } };
  return {
    table,
    high,
    /** Counts one answer; returns the query's half. */
    count(category, query, right, confidence) {
      const h = queryHalf(query);
      const row = table.get(category) ?? { tuning: { n: 0, right: 0 }, 'held out': { n: 0, right: 0 } };
      row[h].n++;
      if (right) row[h].right++;
      table.set(category, row);
      if (confidence >= 0.7) {
        high[h].n++;
        if (right) high[h].right++;
      }
      return h;
    },
  };
}
