// The leaf of the extraction module: the element type every rule works on, and the readings of the parsed
// page they share: an element's text as the reader sees it (whitespace collapsed), its length and how much of
// it is link text, a heading's rank, and the section a heading opens. It imports nothing of the module, so
// the rules can all use it without importing each other.
import type { parseHTML } from 'linkedom';

export type Doc = ReturnType<typeof parseHTML>['document'];
export type El = ReturnType<Doc['createElement']>;

/**
 * White space that `\s+` → ' ' would change: a run that starts with another white-space character, or a
 * space followed by more. A single ' ' (most of them) is not matched, so it is not replaced by itself.
 */
const SPACE_RUN = /[^\S ]\s*| \s+/g;

/**
 * `s.replace(/\s+/g, ' ')`, without the cost: on a long article's text that replaced every space between
 * words, about ten times slower, and the garbage collector's largest single source of work.
 */
export function singleSpaced(s: string): string {
  return s.replace(SPACE_RUN, ' ');
}

export function collapseSpace(s: string): string {
  return singleSpaced(s).trim();
}

export function elementText(el: El): string {
  return collapseSpace(el.textContent ?? '');
}

/** JavaScript's `\s` (what collapseSpace collapses), by UTF-16 code unit. */
function isSpace(c: number): boolean {
  return (
    c === 32 ||
    (c >= 9 && c <= 13) ||
    (c > 127 &&
      (c === 0xa0 ||
        c === 0x1680 ||
        (c >= 0x2000 && c <= 0x200a) ||
        c === 0x2028 ||
        c === 0x2029 ||
        c === 0x202f ||
        c === 0x205f ||
        c === 0x3000 ||
        c === 0xfeff))
  );
}

/**
 * White space that collapsing changes within a trimmed text: a character other than ' ', or ' ' before more.
 * A trimmed text without any (most text nodes: words and single spaces) is as long collapsed as it is.
 */
const NOT_SINGLE_SPACES = /[^\S ]| \s/;

/**
 * `collapseSpace(t).length` of a trimmed text: its length, unless it holds such white space; then counted
 * character by character (the regular expression's scan is native, and about twice as fast as the count).
 */
function trimmedCollapsedLength(t: string): number {
  if (!NOT_SINGLE_SPACES.test(t)) return t.length;
  let n = 0;
  let pendingSpace = false;
  for (let i = 0; i < t.length; i++) {
    if (isSpace(t.charCodeAt(i))) {
      pendingSpace = true;
      continue;
    }
    n += pendingSpace ? 2 : 1;
    pendingSpace = false;
  }
  return n;
}

/**
 * `collapseSpace(s).length` counted piece by piece, without building the collapsed copy: `n` characters so
 * far, whether any non-space was seen, and whether white space waits to count as one space before the next.
 */
class CollapsedCounter {
  n = 0;
  private started = false;
  private pendingSpace = false;

  add(s: string): void {
    const t = s.trim();
    if (t === '') {
      if (s !== '') this.pendingSpace = this.started;
      return;
    }
    // trim() removes what isSpace counts as white space (JavaScript's \s), so s = lead + t + trail.
    const lead = t.length < s.length && isSpace(s.charCodeAt(0));
    if (this.pendingSpace || (lead && this.started)) this.n++;
    this.n += trimmedCollapsedLength(t);
    this.started = true;
    this.pendingSpace = t.length < s.length && isSpace(s.charCodeAt(s.length - 1));
  }
}

/** `collapseSpace(s).length`, counted without building the collapsed copy (rules ask it of every block). */
export function collapsedLength(s: string): number {
  const count = new CollapsedCounter();
  count.add(s);
  return count.n;
}

/**
 * `collapsedLength(el.textContent)`: the text nodes (and CDATA) of the subtree read in document order, as
 * textContent reads them, but without joining them into one string. On a whole article (rules ask it of the
 * page, the pick and every wrapper) the joined copy cost more than the count, and made most of the garbage.
 */
export function textLength(el: El): number {
  const count = new CollapsedCounter();
  eachText(el, (data) => count.add(data));
  return count.n;
}

/**
 * A text's collapsed measure, composable (the collapsed length of two texts joined follows from theirs) and
 * accumulated in place: `n`, collapsedLength of the text so far; `empty`, no character but white space yet;
 * `lead`/`trail`, white space before its first / after its last other character (for an empty text: whether
 * it holds any white space at all, in both).
 */
class Collapsed {
  n = 0;
  empty = true;
  lead = false;
  trail = false;

  constructor(
    readonly el: El,
    public child: El | null,
  ) {}

  /** Appends a text that has `n` collapsed characters (`empty` when none) with white space before and after them. */
  append(n: number, empty: boolean, lead: boolean, trail: boolean): void {
    if (empty) {
      if (this.empty) this.lead = this.trail = this.lead || lead;
      else this.trail ||= lead;
      return;
    }
    if (this.empty) {
      this.lead ||= lead;
      this.n = n;
    } else this.n += n + (this.trail || lead ? 1 : 0);
    this.empty = false;
    this.trail = trail;
  }
}

/**
 * textLength of every element inside `root` (and of `root`), in one walk: a rule that asks it of every block
 * and of the wrappers around them walked the article once per wrapper. Valid until the tree changes.
 */
export function textLengths(root: El): Map<El, number> {
  const out = new Map<El, number>();
  // Iterative post-order (a hostile page may nest deeper than the call stack): each open element's measure so far.
  const stack = [new Collapsed(root, root.firstChild as El | null)];
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const node = top.child;
    if (!node) {
      stack.pop();
      out.set(top.el, top.n);
      stack[stack.length - 1]?.append(top.n, top.empty, top.lead, top.trail);
      continue;
    }
    top.child = node.nextSibling as El | null;
    const type = node.nodeType;
    if (type === 1) stack.push(new Collapsed(node, node.firstChild as El | null));
    else if (type === 3 || type === 4) {
      const s = (node as unknown as CharacterData).data;
      const t = s.trim();
      if (t === '') top.append(0, true, s.length > 0, s.length > 0);
      else top.append(trimmedCollapsedLength(t), false, isSpace(s.charCodeAt(0)), isSpace(s.charCodeAt(s.length - 1)));
    }
  }
  return out;
}

/** `el.textContent.length`, without the joined copy. */
export function textContentLength(el: El): number {
  let n = 0;
  eachText(el, (data) => {
    n += data.length;
  });
  return n;
}

/** `textLength(el) > 0`, read only up to the first character that is not white space. */
export function hasText(el: El): boolean {
  let found = false;
  eachText(el, (data) => {
    for (let i = 0; i < data.length; i++) if (!isSpace(data.charCodeAt(i))) return (found = true);
    return false;
  });
  return found;
}

/** The data of the element's text nodes (and CDATA) in document order: what textContent joins (until `visit` says stop). */
function eachText(el: El, visit: (data: string) => boolean | void): void {
  let node = el.firstChild as El | null;
  while (node) {
    const type = node.nodeType;
    if ((type === 3 || type === 4) && visit((node as unknown as CharacterData).data) === true) return;
    else if (type === 1 && node.firstChild) {
      node = node.firstChild as El;
      continue;
    }
    // Iterative: a hostile page may nest deeper than the call stack.
    while (node !== el && !node.nextSibling) node = node.parentNode as El;
    if (node === el) break;
    node = node.nextSibling as El;
  }
}

/**
 * Lower-case tag names for the tag checks below. A selector string given to querySelector or closest is
 * compiled again on every call (linkedom keeps no cache), which costs more than the walk on a page's
 * thousands of blocks; a set of names is read once.
 */
export function tagNames(...names: string[]): ReadonlySet<string> {
  return new Set(names.map((n) => n.toLowerCase()));
}

/** `el.closest('a, b, …')` for tag names only: the element itself or its nearest ancestor with one of them. */
export function closestTag(el: El, tags: ReadonlySet<string>): El | null {
  for (let node: El | null = el; node; node = node.parentElement as El | null) if (tags.has(node.localName.toLowerCase())) return node;
  return null;
}

/**
 * Visits the element's descendants in document order (as querySelectorAll does, not inside a <template>)
 * until `visit` returns true; returns the one it stopped at. Iterative: a hostile page may nest deeper than
 * the call stack.
 */
function findInside(el: El, visit: (node: El) => boolean): El | null {
  let node = el.firstElementChild as El | null;
  while (node) {
    if (visit(node)) return node;
    const down = node.localName === 'template' ? null : (node.firstElementChild as El | null);
    if (down) {
      node = down;
      continue;
    }
    while (node !== el && !node.nextElementSibling) node = node.parentElement as El;
    if (node === el) return null;
    node = node.nextElementSibling as El;
  }
  return null;
}

/** Visits every element inside `el` in document order, as `el.querySelectorAll('*')` lists them (not inside a <template>). */
export function eachElementInside(el: El, visit: (node: El) => void): void {
  findInside(el, (node) => {
    visit(node);
    return false;
  });
}

/** `el.querySelector('a, b, …')` for tag names only. */
export function firstTagInside(el: El, tags: ReadonlySet<string>): El | null {
  return findInside(el, (node) => tags.has(node.localName.toLowerCase()));
}

/** `el.querySelectorAll('a, b, …')` for tag names only, as an array. */
export function tagsInside(el: El, tags: ReadonlySet<string>): El[] {
  const out: El[] = [];
  findInside(el, (node) => {
    if (tags.has(node.localName.toLowerCase())) out.push(node);
    return false;
  });
  return out;
}

const LINKS = tagNames('a');

/** How much of an element's text is link text. */
export function linkTextLength(el: El): number {
  let n = 0;
  for (const a of tagsInside(el, LINKS)) n += textLength(a);
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
