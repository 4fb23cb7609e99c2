// Readability keeps one block and its close relatives; pages built of boxes of the same kind (a recipe's
// header, ingredients and method as three `<article class="box">`s; a live ticker split into cards) lose
// every box but the one it crowned. Here the crowned block is found again in the pruned page, and the
// siblings that are boxes of the same kind (same tag, a class in common) and are not link lists are put
// back around it, in page order.
import { linkTextLength, singleSpaced, textLength, type El } from './dom.js';
import type { Paragraph } from './prose-container.js';
import { TextFinder } from './text-finder.js';

/** A sibling whose text is at least this share link text is navigation, not a box of the article. */
const MAX_SIBLING_LINK_SHARE = 0.5;
/** The block found in the page may hold at most this many times the article's text (else it is a wrapper). */
const MAX_BLOCK_GROWTH = 2;
/** Boxes beside the block needed to call the page one of boxes: two columns side by side are not. */
const MIN_BOXES = 2;

/**
 * `article` with the same-kind sibling boxes of its block in the pruned `body` added in page order, or
 * `article` itself when the block cannot be found or has no such siblings. `articleText` and `articleChars`:
 * the article's single-spaced text and its length (textLength), when the caller measured them already.
 */
export function withSiblingBoxes(
  article: El,
  body: El,
  paras: Paragraph[],
  articleText = singleSpaced(article.textContent ?? ''),
  articleChars = textLength(article),
): El {
  const text = new TextFinder(articleText);
  const kept = paras.filter((p) => p.weight > 0 && text.has(p.text)).map((p) => p.el);
  // Measured once (articleChars): the article is not changed while its block is looked for (a long one costs a walk each time).
  const limit = MAX_BLOCK_GROWTH * articleChars;
  // From the block up through wrappers that add little to it (a heading, a time line): the first level
  // with boxes of the same kind beside it is where the page's boxes are.
  for (let block = commonAncestor(kept, body); block && block !== body && textLength(block) <= limit; block = block.parentElement as El | undefined) {
    const siblings = Array.from(block.parentElement?.children ?? []) as El[];
    const kind = classes(block)[0];
    const boxes = kind
      ? siblings.filter((s) => s !== block && s.tagName === block!.tagName && classes(s)[0] === kind && isBox(s) && textLength(s) <= articleChars)
      : [];
    if (boxes.length >= MIN_BOXES) return joined(article, block, siblings, boxes);
  }
  return article;
}

function joined(article: El, block: El, siblings: El[], boxes: El[]): El {
  const out = article.ownerDocument.createElement('div');
  for (const s of siblings) {
    if (s === block) out.appendChild(article);
    else if (boxes.includes(s)) out.appendChild(s.cloneNode(true));
  }
  return out as El;
}

function classes(el: El): string[] {
  return (el.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
}

function isBox(el: El): boolean {
  const len = textLength(el);
  return len > 0 && linkTextLength(el) < MAX_SIBLING_LINK_SHARE * len;
}

function commonAncestor(els: El[], root: El): El | undefined {
  if (els.length === 0) return undefined;
  let anc: El | null = els[0]!;
  for (const el of els.slice(1)) {
    while (anc && !anc.contains(el)) anc = anc === root ? null : (anc.parentElement as El | null);
  }
  return anc ?? undefined;
}
