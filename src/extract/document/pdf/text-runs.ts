// What the layout code works on: a page's text as positioned runs, in top-down coordinates (y grows down
// the page), independent of pdf.js so the layout logic can be tested on hand-made pages.

export interface TextRun {
  text: string;
  /** Left edge, in PDF points from the page's left. */
  x: number;
  /** Baseline, in points from the page's top. */
  y: number;
  width: number;
  /** Font size in points (the text matrix's vertical scale). */
  size: number;
  bold: boolean;
}

export interface PageRuns {
  /** 1-based page number in the document. */
  number: number;
  width: number;
  height: number;
  runs: TextRun[];
}

/** A box around a run of text on one baseline: a segment of a line, or a whole table. */
export interface Box {
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

/** Runs on one baseline with no column-sized gap between them. */
export interface Segment extends Box {
  runs: TextRun[];
  text: string;
  /** Baseline. */
  y: number;
  size: number;
  bold: boolean;
}

export function boxOf(runs: readonly { x: number; y: number; width: number; size: number }[]): Box {
  let x0 = Infinity;
  let x1 = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  for (const r of runs) {
    x0 = Math.min(x0, r.x);
    x1 = Math.max(x1, r.x + r.width);
    // Ascent and descent as fractions of the size: close enough for every common text face.
    top = Math.min(top, r.y - 0.8 * r.size);
    bottom = Math.max(bottom, r.y + 0.22 * r.size);
  }
  return { x0, x1, top, bottom };
}

/** The value that covers the most weight (e.g. the font size most characters are set in). */
export function weightedMode(pairs: Iterable<[number, number]>): number | undefined {
  const weights = new Map<number, number>();
  for (const [value, weight] of pairs) {
    const key = Math.round(value * 2) / 2;
    weights.set(key, (weights.get(key) ?? 0) + weight);
  }
  let best: number | undefined;
  let bestWeight = -1;
  for (const [value, weight] of weights) {
    if (weight > bestWeight) {
      best = value;
      bestWeight = weight;
    }
  }
  return best;
}
