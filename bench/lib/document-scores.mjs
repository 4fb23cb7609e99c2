// Scores for text read from a document against its truth: token F1 (bag of words), reading order as the
// normalised indel similarity of the two token sequences (1 − indel distance / (|a| + |b|), the measure
// opendataloader-bench reports as NID, here over words rather than characters), and heading recall.

/** Markdown → plain words: syntax, link targets, comments and table rules dropped; NFKC, lower case. */
export function tokens(text) {
  const plain = text
    .normalize('NFKC')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*\|?\s*:?-{3,}.*$/gm, ' ')
    .toLowerCase();
  return plain.match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function tokenF1(truth, got) {
  const counts = new Map();
  for (const t of truth) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of got) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      common++;
      counts.set(t, n - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / got.length;
  const recall = common / truth.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Length of the longest common subsequence (two rows of the DP table; words interned as numbers). */
function lcs(a, b) {
  const ids = new Map();
  const id = (t) => ids.get(t) ?? (ids.set(t, ids.size), ids.size - 1);
  const x = Int32Array.from(a, id);
  const y = Int32Array.from(b, id);
  let prev = new Int32Array(y.length + 1);
  let cur = new Int32Array(y.length + 1);
  for (let i = 1; i <= x.length; i++) {
    const xi = x[i - 1];
    for (let j = 1; j <= y.length; j++) cur[j] = xi === y[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  return prev[y.length];
}

/** Normalised indel similarity: 1 when the sequences are equal, 0 when they share nothing. */
export function orderSimilarity(truth, got) {
  if (truth.length + got.length === 0) return 1;
  return (2 * lcs(truth, got)) / (truth.length + got.length);
}

/** Share of the truth's headings that appear as a Markdown heading line (same words). */
export function headingRecall(truthHeadings, markdown) {
  if (truthHeadings.length === 0) return undefined;
  const lines = new Set(
    markdown
      .split('\n')
      .filter((l) => /^#{1,6}\s/.test(l))
      .map((l) => tokens(l).join(' ')),
  );
  return truthHeadings.filter((h) => lines.has(tokens(h).join(' '))).length / truthHeadings.length;
}
