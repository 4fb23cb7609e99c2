// Pruning rules shared by the article and the whole-page fallback. Readability finds the densest block of
// prose but keeps what sits inside it: comment threads, share bars, "related posts", tag clouds, author
// boxes. These rules follow the usual signals (as trafilatura and defuddle describe theirs): class/id
// names, ARIA roles, link density and how little prose a block holds. Each removal is bounded in size so
// a misleading class name on a large block cannot take the content with it.
import { pruneBoilerplateText, pruneClosingSignature } from './boilerplate-text.js';
import {
  closestTag,
  collapseSpace,
  firstTagInside,
  hasText,
  isProse,
  linkTextLength,
  tagNames,
  tagsInside,
  textLength,
  textLengths,
  textPrefix,
  type El,
} from './dom.js';
import { paragraphs } from './prose-container.js';
import { anyOf } from './lexicon/compile.js';
import { ADVERT_WORDS, COMMENT_WORDS, CONTENT_KINDS, CONTENT_PARTS, FURNITURE_WORDS, nameTest, READ_MORE_WORDS, WIDGET_WORDS } from './lexicon/class-names.js';
import { pruneSiteSections, prunePromos } from './promos.js';
import { pruneTeaserCards } from './teasers.js';
import { traceRemovals, type RuleTrace } from './trace.js';

export type { RuleTrace } from './trace.js';

const COMMENTS = nameTest(COMMENT_WORDS);
const FURNITURE = nameTest(FURNITURE_WORDS);
/** WordPress widgets (WIDGET_WORDS), matched as whole names between spaces. */
const WIDGET = new RegExp(`(^|\\s)${anyOf(WIDGET_WORDS)}(\\s|$)`, 'i');
/** The article's own text block by name: "post-body", "entry-content". */
const CONTENT_NAME = new RegExp(`(^|\\s)${anyOf(CONTENT_KINDS)}-?${anyOf(CONTENT_PARTS)}(\\s|$)`, 'i');
const ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog', 'menu', 'menubar', 'toolbar']);
const KEEP_TAGS = new Set(['HTML', 'BODY', 'MAIN', 'ARTICLE', 'PRE', 'CODE', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TD', 'TH', 'FIGURE', 'H1', 'H2', 'H3']);

/** Never remove a single block holding more than this share of the root's text on a name alone. */
const MAX_SHARE_BY_NAME = 0.5;

function names(el: El): string {
  // A BEM modifier ("Section--Ads", "teaser--share") says what a block carries or how it looks, not what it is.
  const classes = (el.getAttribute('class') ?? '').replace(/--[\w-]+/g, '');
  const id = el.getAttribute('id') ?? '';
  return `${slugOfOwnText(el, id) ? '' : id} ${classes} ${el.getAttribute('itemprop') ?? ''}`;
}

/** An id of at least this many words… */
const SLUG_MIN_WORDS = 3;
/** …this share of which open the element's own text is its heading made a slug, not a component's name. */
const SLUG_MIN_SHARE = 0.6;
/** An id of this many words is a sentence made a slug whatever the text: components are named in a word or three. */
const SLUG_SURE_WORDS = 6;

/**
 * Whether the id is the element's heading turned into a slug ("gmail-predictable-scriptable-responses",
 * "conducting-ad-hoc-analysis"): its words are the text's, and say nothing of what kind of block it is. The
 * heading itself may be gone (Readability drops headings), so a long enough slug is known by its length.
 */
function slugOfOwnText(el: El, id: string): boolean {
  const words = id
    .toLowerCase()
    .split(/[^a-z\p{L}]+/u)
    .filter((w) => w.length >= 2);
  if (words.length < SLUG_MIN_WORDS) return false;
  if (words.filter((w) => /^\p{L}+$/u.test(w) && /[aeiouy]/.test(w)).length >= SLUG_SURE_WORDS) return true;
  const prefix = textPrefix(el, 300);
  return words.filter((w) => prefix.includes(w)).length >= SLUG_MIN_SHARE * words.length;
}

/** Tags of phrases: set inside a sentence, never a block of their own. */
const PHRASE_TAGS = new Set(['A', 'SPAN', 'EM', 'STRONG', 'B', 'I', 'U', 'ABBR', 'CITE', 'Q', 'SMALL', 'MARK', 'DFN', 'SUB', 'SUP']);
/** Blocks of running text whose phrases are words of their sentences. */
const RUNNING_TEXT = new Set(['P', 'LI', 'DD', 'BLOCKQUOTE', 'TD']);

/**
 * A phrase of a sentence (a glossed word given a "popup" class, a linked name) is part of the sentence,
 * whatever its class says: removing it would cut words out of the text. Its block holds more words
 * besides it than it holds itself.
 */
function phraseOfSentence(el: El, length: () => number): boolean {
  const parent = el.parentElement as El | null;
  if (!PHRASE_TAGS.has(el.tagName) || parent === null || !(RUNNING_TEXT.has(parent.tagName) || hasOwnWords(parent))) return false;
  const len = length();
  return textLength(parent) - len > 2 * len;
}

/**
 * Whether the element's own text (its text nodes, not its children's) has words: then it is running text
 * whatever its tag. Readability re-tags the blocks it keeps (a table cell of text becomes a DIV), and a DIV
 * of bare sentences is a paragraph.
 */
function hasOwnWords(el: El): boolean {
  for (let c = el.firstChild as El | null; c; c = c.nextSibling as El | null) if (c.nodeType === 3 && /\p{L}{2}/u.test(c.textContent ?? '')) return true;
  return false;
}

/**
 * A block holding the article's body (schema.org's articleBody) or the page's only H1 is the content, whatever
 * its tag or name says: sites put articles in an <aside>, or name a layout "…-sidebar-layout" for the
 * sidebar it also holds.
 */
function holdsArticle(el: El): boolean {
  if (el.querySelector('[itemprop="articleBody"]')) return true;
  const h1 = el.querySelector('h1');
  return h1 !== null && el.ownerDocument.querySelectorAll('h1').length === 1;
}

/** Names of advert slots; sites also give them to the block around the article that hosts the slots. */
const ADVERT = new RegExp(`(^|[\\s_-])${anyOf(ADVERT_WORDS)}(?=[\\s_-]|\\d|$)`, 'gi');
/** Paragraphs of prose of which a block named only as an advert holds this many are the article that hosts the ads. */
const AD_PROSE_PARAGRAPHS = 3;

/**
 * A block named only as an advert ("body-ad": the article with its ad slots) that holds several paragraphs
 * of prose is the article: adverts are pictures and a line or two.
 */
function proseUnderAdName(el: El, label: string): boolean {
  if (!label.match(ADVERT) || FURNITURE.test(label.replace(ADVERT, ' '))) return false;
  let n = 0;
  for (const p of Array.from(el.querySelectorAll('p')) as El[]) if (isProse(p) && ++n >= AD_PROSE_PARAGRAPHS) return true;
  return false;
}

/** "readmore", "read-more", "js_readmore": a name sites give both to links onward and to text shown in part. */
const READ_MORE = new RegExp(`(^|[\\s_-])${anyOf(READ_MORE_WORDS)}(?=[\\s_-]|\\d|$)`, 'gi');

export interface PruneOptions {
  /** false: keep blocks whatever their names say (a site that names its entries like furniture). */
  byName?: boolean;
  /** false: keep link lists (a page whose content is one: a post of bookmarked links). */
  byLinks?: boolean;
  /** Rules switched off by name (for measuring what each rule is worth). */
  off?: ReadonlySet<string>;
  /** When given, every removal is listed here with the rule that made it. */
  trace?: RuleTrace[];
  /** Which tree is pruned, for the trace ('page' when not given). */
  tree?: RuleTrace['tree'];
}

interface PruneRule {
  name: string;
  /** What it removes, and why that is not the article. */
  why: string;
  /** The option that switches it off for a whole pass, if any. */
  group?: 'byName' | 'byLinks';
  run: (root: El, total: number, start: PruneStart) => void;
}

/** What the root held before any rule ran, for rules that judge what the removals did. */
interface PruneStart {
  /** Headings in a row that had nothing under them before pruning (their sections are formulas or pictures). */
  bareHeadings: ReadonlySet<El>;
}

/**
 * The pruning rules, in the order they run on each tree pruned (the steps prune-page and prune-pick of
 * EXTRACT_STEPS in steps.ts, which orders every pass of the extraction). Names come first (cheap and
 * sure), text next (pitches and labels), link density after the named blocks are gone (a share bar would
 * otherwise dilute it), and the clean-up of what removals leave behind last.
 */
export const PRUNE_RULES: readonly PruneRule[] = [
  {
    name: 'names-and-roles',
    why: 'comment threads, share bars, related links, widgets and menus known by tag, role, class or id',
    group: 'byName',
    run: pruneByName,
  },
  { name: 'boilerplate-text', why: 'paragraphs that are labels, credits or notices by their wording', run: pruneBoilerplateText },
  { name: 'promos', why: '"see also" pointers, widget prompts, advert labels and the site speaking of itself', run: (root) => prunePromos(root) },
  { name: 'teaser-cards', why: 'cards of headline and blurb leading to other pages', group: 'byLinks', run: pruneTeaserCards },
  { name: 'link-dense', why: 'lists, link rows and small blocks that are nearly all link text', group: 'byLinks', run: pruneLinkDense },
  { name: 'site-sections', why: "the site's own sections after the article (newsletter, more from the site)", run: (root) => pruneSiteSections(root) },
  {
    name: 'empty-tail',
    why: 'headings and labels left with nothing under them by the removals above',
    run: (root, _total, start) => pruneEmptyTail(root, start.bareHeadings),
  },
  { name: 'closing-signature', why: "a sign-off line that closes the site's template, not the article", run: (root) => pruneClosingSignature(root) },
];

/** Every rule name, for options and the bench flag that switch rules off. */
export const PRUNE_RULE_NAMES = PRUNE_RULES.map((r) => r.name);

/** Removes comment sections, site furniture, and blocks that are mostly links, rule by rule (PRUNE_RULES). */
export function pruneBoilerplate(root: El, options: PruneOptions = {}): void {
  const total = Math.max(1, textLength(root));
  const start: PruneStart = { bareHeadings: new Set(options.off?.has('empty-tail') ? [] : bareHeadings(root)) };
  for (const rule of PRUNE_RULES) {
    if (options.off?.has(rule.name) || (rule.group && options[rule.group] === false)) continue;
    traceRemovals(rule.name, options.tree ?? 'page', root, options.trace, () => rule.run(root, total, start));
  }
}

/** A block named as furniture; one named only "read more" that is prose is the text itself, collapsed until the reader opens it. */
function namedFurniture(el: El, label: string): boolean {
  if (!FURNITURE.test(label)) return false;
  return FURNITURE.test(label.replace(READ_MORE, ' ')) || !isProse(el);
}

function pruneByName(root: El, total: number): void {
  for (const el of Array.from(root.querySelectorAll('*')) as El[]) {
    if (!el.isConnected || el === root || KEEP_TAGS.has(el.tagName)) continue;
    const role = el.getAttribute('role') ?? '';
    const label = names(el);
    // Measured only when asked: most blocks are neither phrases nor named as furniture, and a wrapper's
    // length is a walk through the whole article (nothing is removed between here and its last use).
    let len: number | undefined;
    const length = () => (len ??= textLength(el));
    const byName =
      ROLES.has(role) ||
      ['NAV', 'ASIDE', 'FOOTER'].includes(el.tagName) ||
      COMMENTS.test(label) ||
      WIDGET.test(label) ||
      (namedFurniture(el, label) && !CONTENT_NAME.test(label) && !proseUnderAdName(el, label));
    // Both only read the tree; the phrase test measures the parent, so it is asked only of a block named for removal.
    if (!byName || phraseOfSentence(el, length)) continue;
    if (length() <= MAX_SHARE_BY_NAME * total && !holdsArticle(el)) el.remove();
  }
}

const TABLE = tagNames('table');
const LINKS = tagNames('a');

/** Lists, link rows and small blocks whose text is nearly all link text are navigation, not prose. */
function pruneLinkDense(root: El, total: number): void {
  const dataTables = new Set((Array.from(root.querySelectorAll('table')) as El[]).filter(isDataTable));
  const proseLists = new Map<El, boolean>();
  // Measured before the first removal: a block's text is unchanged when its turn comes, since only blocks
  // before it in document order (never inside it: those come after it) were removed by then.
  const lengths = textLengths(root);
  for (const el of Array.from(root.querySelectorAll('ul, ol, dl, div, section, p, table, header, span')) as El[]) {
    const table = closestTag(el, TABLE);
    // A data table's cells (a linked ingredient beside its quantity) are read with their table, not alone.
    if (!el.isConnected || (table && dataTables.has(table))) continue;
    const len = lengths.get(el) ?? textLength(el);
    if (len === 0 || len > 0.5 * total || phraseInSentence(el, len)) continue;
    const density = pointerLinkLength(el, lengths) / len;
    const isList = ['UL', 'OL', 'DL'].includes(el.tagName);
    // A paragraph with a few links is prose; a block of links with little else is a menu or a "read next".
    // Short lines that are mostly one link ("Read more: …") are pointers elsewhere.
    const threshold = isList ? 0.7 : el.tagName === 'P' ? (len < 150 ? 0.7 : 0.9) : 0.6;
    if (density < threshold || (!isList && len >= 800)) continue;
    // A list with an item of prose is the article's list (notes, each with its links), not a menu.
    if (isList && density < 1 && paragraphs(el).some((p) => p.weight > 0)) continue;
    if (isList && listOfSentences(el)) continue;
    if (isList && subListOfProse(el, proseLists)) continue;
    el.remove();
  }
}

/** Words outside links a list item needs to be a sentence with links rather than a menu entry. */
const SENTENCE_OWN_WORDS = 4;

/**
 * A list whose every item opens with words of its own and has several of them ("Neil has patches up to
 * <a>improve the tab unloader</a>") is a list of sentences whose links are phrases, however much of its
 * text the links hold: a menu's or a "related" list's entries open with their link, and what follows it
 * is a date, a count or a byline of a word or three.
 */
function listOfSentences(list: El): boolean {
  const items = (Array.from(list.children) as El[]).filter((li) => li.tagName === 'LI' && hasText(li));
  return items.length > 0 && items.every(sentenceWithLinks);
}

function sentenceWithLinks(item: El): boolean {
  let own = '';
  let opened = false;
  let opensWithWords = false;
  const walk = (node: El, inLink: boolean): void => {
    for (let c = node.firstChild as El | null; c; c = c.nextSibling as El | null) {
      if (c.nodeType === 3) {
        const t = c.textContent ?? '';
        if (!opened && /[\p{L}\p{N}]/u.test(t)) {
          opened = true;
          opensWithWords = !inLink && /\p{L}{2}/u.test(t);
        }
        if (!inLink) own += ` ${t}`;
      } else if (c.nodeType === 1) walk(c, inLink || c.tagName === 'A');
    }
  };
  walk(item, false);
  return opensWithWords && (own.match(/\p{L}{2,}/gu) ?? []).length >= SENTENCE_OWN_WORDS;
}

const LIST_ITEMS = tagNames('li');
const LISTS = tagNames('ul', 'ol');

/**
 * A list under an item that introduces it in words of its own ("In progress:", then the bugs' links), in a
 * list that holds prose, is part of the article's list however many links it has: a menu's sub-list hangs
 * under a link, and a menu holds no prose. `proseLists` caches which lists hold prose.
 */
function subListOfProse(list: El, proseLists: Map<El, boolean>): boolean {
  const item = list.parentElement ? closestTag(list.parentElement as El, LIST_ITEMS) : null;
  const outer = item?.parentElement ? closestTag(item.parentElement as El, LISTS) : null;
  if (!item || !outer || !hasOwnWords(item)) return false;
  let prose = proseLists.get(outer);
  if (prose === undefined) {
    prose = paragraphs(outer).some((p) => p.weight > 0);
    proseLists.set(outer, prose);
  }
  return prose;
}

/** Blocks of running text: a span inside one may be a phrase of its sentence. Headings are not running text. */
const PROSE_PARENTS = new Set(['P', 'LI', 'DD', 'BLOCKQUOTE', 'TD']);

/**
 * A span that is a phrase of its parent's sentence (a linked name in running text): the parent is a prose
 * block whose own words, outside links, are more than the span's text, and the span has words. The parent's density then decides,
 * as it was checked first and stayed. An "[edit]" link beside a heading or a row of links after a title is
 * no phrase of a sentence.
 */
function phraseInSentence(el: El, len: number): boolean {
  const parent = el.parentElement as El | null;
  return (
    el.tagName === 'SPAN' &&
    parent !== null &&
    PROSE_PARENTS.has(parent.tagName) &&
    // A phrase has words: a footnote's "^" back-link is a symbol, not part of the sentence.
    /[\p{L}\p{N}]/u.test(el.textContent ?? '') &&
    // …and is one link: a row of them ("Order Reprints | Today's Paper") is a toolbar, even inside a paragraph.
    tagsInside(el, LINKS).length === 1 &&
    textLength(parent) - linkTextLength(parent) > len
  );
}

/**
 * Text of the links in a block that point to other pages, read from `lengths` (the block's links are as
 * measured). E-mail and telephone links are not counted: an address to write to or a number to call is a
 * detail the reader needs, not a pointer to another page.
 */
function pointerLinkLength(el: El, lengths: ReadonlyMap<El, number>): number {
  let n = 0;
  for (const a of tagsInside(el, LINKS)) {
    if (a.hasAttribute('href') && /^(mailto|tel):/i.test(a.getAttribute('href') ?? '')) continue;
    n += lengths.get(a) ?? textLength(a);
  }
  return n;
}

/** A table needs at least this many rows to be read as data rather than a row of links. */
const DATA_TABLE_MIN_ROWS = 2;

/**
 * A table whose every row pairs its links with a cell of plain text (a quantity beside each linked
 * ingredient, a price beside each product) is data, however much of its text is link text: a menu's
 * cells are all links.
 */
export function isDataTable(el: El): boolean {
  if (el.tagName !== 'TABLE') return false;
  const rows = (Array.from(el.querySelectorAll('tr')) as El[]).filter((tr) => hasText(tr));
  const plainCell = (tr: El) => (Array.from(tr.querySelectorAll('td, th')) as El[]).some((c) => hasText(c) && !c.querySelector('a'));
  return rows.length >= DATA_TABLE_MIN_ROWS && rows.every(plainCell);
}

/** A heading at least this long that ends a sentence is prose set in heading type (a standfirst, a closing line). */
const PROSE_HEADING_CHARS = 60;

function isProseHeading(h: El): boolean {
  const text = collapseSpace(h.textContent ?? '');
  return text.length >= PROSE_HEADING_CHARS && /[.!?…]["'“”»«]?$/.test(text);
}

/** Whether nothing follows the heading before the next heading of its rank or higher, or the end. */
function withoutSection(h: El, root: El): boolean {
  const next = nextBlock(h, root);
  return !next || (/^H[1-6]$/.test(next.tagName) && next.tagName <= h.tagName);
}

/**
 * The headings of `root` that have no section under them and stand in a row with another such heading of
 * their rank: the page's outline over what no text shows (formulas, pictures). A lone bare heading is the
 * title of a widget that is gone, and goes when pruning leaves it so.
 */
function bareHeadings(root: El): El[] {
  const bare = (Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6')) as El[]).filter((h) => withoutSection(h, root));
  const bareSet = new Set(bare);
  const inRow = new Set<El>();
  for (const h of bare) {
    const next = nextBlock(h, root);
    if (next && next.tagName === h.tagName && bareSet.has(next)) inRow.add(h).add(next);
  }
  return [...inRow];
}

/**
 * Headings left without a section (what followed them was pruned) announce nothing; a heading that is a
 * sentence of prose says something itself and stays. Headings in a row that had nothing under them before
 * pruning were not left so by it: what they title is something no text shows (formulas, pictures the page
 * drew), and they stay as the page has them.
 */
function pruneEmptyTail(root: El, bareAtStart: ReadonlySet<El>): void {
  const headings = Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6')) as El[];
  for (const h of headings.reverse()) {
    if (isProseHeading(h) || bareAtStart.has(h)) continue;
    if (withoutSection(h, root)) h.remove();
  }
}

const HEADINGS = tagNames('h1', 'h2', 'h3', 'h4', 'h5', 'h6');
const isHeading = (el: El) => /^H[1-6]$/.test(el.tagName);

/** The next element after `el` in document order (outside it) that has text or an image. */
function nextBlock(el: El, root: El): El | undefined {
  for (let node: El | null = el; node && node !== root; node = node.parentElement as El | null) {
    for (let sib = node.nextElementSibling as El | null; sib; sib = sib.nextElementSibling as El | null) {
      if (!hasText(sib) && !sib.querySelector('img') && sib.tagName !== 'IMG') continue;
      if (isHeading(sib) || firstTagInside(sib, HEADINGS)?.parentElement !== sib) return sib;
      // A wrapper whose first block is a heading of its own: that heading is what comes next.
      const first = firstChildBlock(sib);
      return first && isHeading(first) ? first : sib;
    }
  }
  return undefined;
}

function firstChildBlock(el: El): El | undefined {
  for (let c = el.firstElementChild as El | null; c; c = c.nextElementSibling as El | null) if (hasText(c)) return c;
  return undefined;
}
