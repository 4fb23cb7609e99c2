// The leaf of the extraction module: the element type every rule works on, and the readings of the parsed
// page they share: an element's text as the reader sees it (whitespace collapsed), its length and how much of
// it is link text, a heading's rank, and the section a heading opens. It imports nothing of the module, so
// the rules can all use it without importing each other.
import type { parseHTML } from 'linkedom';

export type Doc = ReturnType<typeof parseHTML>['document'];
export type El = ReturnType<Doc['createElement']>;

export function collapseSpace(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

export function elementText(el: El): string {
  return collapseSpace(el.textContent ?? '');
}

export function textLength(el: El): number {
  return elementText(el).length;
}

/** How much of an element's text is link text. */
export function linkTextLength(el: El): number {
  let n = 0;
  for (const a of Array.from(el.querySelectorAll('a'))) n += textLength(a as El);
  return n;
}

/**
 * Prose, the one definition every rule uses: a paragraph of at least PROSE_MIN_CHARS characters of which at
 * most PROSE_MAX_LINK_SHARE is link text. A longer line of links is a pointer elsewhere, a shorter line a
 * label, a date or a name.
 */
export const PROSE_MIN_CHARS = 50;
export const PROSE_MAX_LINK_SHARE = 0.3;

/** Whether text of `chars` characters, `linkChars` of them link text, is prose. */
export function isProseText(chars: number, linkChars: number): boolean {
  return chars >= PROSE_MIN_CHARS && linkChars <= PROSE_MAX_LINK_SHARE * chars;
}

/** Whether the element's text, taken as one paragraph, is prose. */
export function isProse(el: El): boolean {
  const chars = textLength(el);
  return chars >= PROSE_MIN_CHARS && isProseText(chars, el.tagName === 'A' ? chars : linkTextLength(el));
}

/** 1–6 for H1–H6; 7 for anything else (a bold label heads less than any heading). */
export function headingRank(el: El): number {
  return /^H[1-6]$/.test(el.tagName) ? Number(el.tagName[1]) : 7;
}

/**
 * The heading, the wrappers it is alone in ("<div><h3>Related</h3></div><ul>…"), and the siblings after it
 * until a heading that outranks or equals it, or a sibling `endsBefore` says belongs to what follows.
 */
export function sectionOf(heading: El, root: El, endsBefore: (sib: El, level: number) => boolean = () => false): El[] {
  const level = headingRank(heading);
  const own = elementText(heading);
  let start: El = heading;
  while (start.parentElement && start.parentElement !== root && elementText(start.parentElement as El) === own) start = start.parentElement as El;
  const section: El[] = [start];
  for (let sib = start.nextElementSibling as El | null; sib; sib = sib.nextElementSibling as El | null) {
    if (/^H[1-6]$/.test(sib.tagName) && headingRank(sib) <= level) break;
    if (endsBefore(sib, level)) break;
    section.push(sib);
  }
  return section;
}

/**
 * Whether the element's text, trimmed, is at most `limit` characters: `textContent.trim().length <= limit`,
 * but the walk stops once the text is known to be longer, so asking it of a whole article costs a paragraph.
 */
export function trimmedLengthAtMost(el: El, limit: number): boolean {
  let text = '';
  const walk = (node: El): boolean => {
    for (let c = node.firstChild as El | null; c; c = c.nextSibling as El | null) {
      if (c.nodeType === 3 || c.nodeType === 4) {
        text += c.textContent ?? '';
        // Leading space never counts; trailing space might be trimmed, so only text beyond it decides.
        if (text.length > limit && text.trim().length > limit) return false;
      } else if (c.nodeType === 1 && !walk(c)) return false;
    }
    return true;
  };
  return walk(el) && text.trim().length <= limit;
}

/**
 * The first `limit` characters of the element's text (whitespace collapsed, lower-cased): the walk stops
 * there, so asking it of a whole article costs a heading.
 */
export function textPrefix(el: El, limit: number): string {
  let text = '';
  const walk = (node: El): boolean => {
    for (let c = node.firstChild as El | null; c; c = c.nextSibling as El | null) {
      if (c.nodeType === 3 || c.nodeType === 4) {
        text += c.textContent ?? '';
        if (text.length > limit) return false;
      } else if (c.nodeType === 1 && !walk(c)) return false;
    }
    return true;
  };
  walk(el);
  return collapseSpace(text).slice(0, limit).toLowerCase();
}
