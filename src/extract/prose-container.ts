// A second opinion on where the main content is, by text density rather than Readability's scores.
// Readability ranks paragraphs by commas and class names and sometimes crowns the wrong block: a long list
// of names, a table of addresses, or one half of an article split around an advert. Here every paragraph
// of the (already pruned) page is weighed: prose (long, few links) counts for the container holding it,
// link lists and short link lines count against it. The container with the highest total is the densest
// block of prose, which may span the split halves that Readability sees as separate candidates.
import { collapseSpace, PROSE_MAX_LINK_SHARE, PROSE_MIN_CHARS, textContentLength, type El } from './dom.js';

/** Elements whose inline text forms one paragraph; their block children are paragraphs of their own. */
const BLOCKS = new Set([
  'P',
  'LI',
  'TD',
  'TH',
  'DD',
  'DT',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'BLOCKQUOTE',
  'PRE',
  'FIGCAPTION',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'BODY',
  'UL',
  'OL',
  'DL',
  'TABLE',
  'TBODY',
  'THEAD',
  'TR',
  'FORM',
  'HEADER',
  'FIGURE',
  'ADDRESS',
  'CENTER',
  'FIELDSET',
]);

// What counts as prose is defined once, in dom.ts (PROSE_MIN_CHARS, PROSE_MAX_LINK_SHARE).
/** A paragraph with at least this share of link text is navigation. */
const NAV_MIN_LINK_SHARE = 0.6;

export interface Paragraph {
  /** The block element whose inline text this is. */
  el: El;
  text: string;
  /** Positive for prose, negative for navigation, zero for what cannot be told (short lines, headings). */
  weight: number;
}

/** The page's paragraphs in document order, each with its weight. */
export function paragraphs(root: El): Paragraph[] {
  const out: Paragraph[] = [];
  // Text inside a link is link text however it is wrapped: a teaser card (headline and blurb in one <a>)
  // holds <p>s that are the link's, not prose.
  const visit = (el: El, inLinkAbove: boolean): void => {
    let text = '';
    // The same text with its <br> line breaks, to weigh line by line; `text` stays as the page reads it
    // (textContent), so that it can be found in other copies of the page.
    let lines = '';
    let linkText = '';
    const walk = (node: El, inLink: boolean): void => {
      for (let child = node.firstChild as El | null; child; child = child.nextSibling as El | null) {
        if (child.nodeType === 1 && child.tagName === 'BR') lines += '\n';
        else if (child.nodeType === 3) {
          const t = child.textContent ?? '';
          text += t;
          lines += t;
          if (inLink) linkText += t;
        } else if (child.nodeType === 1) {
          if (BLOCKS.has(child.tagName)) visit(child, inLink);
          else walk(child, inLink || child.tagName === 'A');
        }
      }
    };
    walk(el, inLinkAbove);
    const clean = collapseSpace(text);
    if (!clean) return;
    const share = collapseSpace(linkText).length / clean.length;
    let weight = 0;
    if (share >= NAV_MIN_LINK_SHARE) weight = -clean.length;
    else if (share <= PROSE_MAX_LINK_SHARE) weight = proseChars(lines) * (1 - share);
    out.push({ el, text: clean, weight });
  };
  visit(root, root.tagName === 'A' || !!root.parentElement?.closest('a'));
  return out;
}

/**
 * The prose in a paragraph's text: all of it when it is long enough, or, for text broken into lines by
 * `<br>`, only the lines long enough to be prose. A cell of names one to a line ("Jane Doe, Some
 * University") or an address block is a list however long, not prose; paragraphs a site separates by
 * line breaks keep their weight line by line.
 */
function proseChars(text: string): number {
  const lines = text
    .split('\n')
    .map((l) => collapseSpace(l))
    .filter(Boolean);
  if (lines.length <= 1) {
    const len = lines[0]?.length ?? 0;
    return len >= PROSE_MIN_CHARS ? len : 0;
  }
  return lines.reduce((n, l) => n + (l.length >= PROSE_MIN_CHARS ? l.length : 0), 0);
}

/** A container holding at least this share of the best total is preferred when it is smaller. */
export const DENSE_SHARE = 0.85;

/**
 * The element holding the most prose net of navigation, and that total. A wrapper adding only a little
 * prose (a sidebar's blurbs) to a block loses to the block: the smallest element with nearly the best
 * total wins.
 */
export function proseContainer(root: El, paras: Paragraph[] = paragraphs(root)): { el: El; score: number } | undefined {
  const score = new Map<El, number>();
  for (const p of paras) {
    if (p.weight === 0) continue;
    for (let el: El | null = p.el; el; el = el === root ? null : (el.parentElement as El | null)) score.set(el, (score.get(el) ?? 0) + p.weight);
  }
  let top = 0;
  for (const s of score.values()) top = Math.max(top, s);
  if (top <= 0) return undefined;
  let best: { el: El; score: number; chars: number } | undefined;
  for (const [el, s] of score) {
    if (s < DENSE_SHARE * top) continue;
    const chars = textContentLength(el);
    if (!best || chars < best.chars) best = { el, score: s, chars };
  }
  return best && { el: best.el, score: best.score };
}
