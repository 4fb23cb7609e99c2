// Boilerplate told by what it says rather than by its class names: sites name their blocks anything, but
// the words of a "Related articles" heading, a photo credit, an advert label, a copyright notice, a
// newsletter pitch or a publication date line are few and recognisable, in every language the site is in.
// Only short texts are judged (a long paragraph that mentions a newsletter is prose), and a heading only
// when its whole text is such a phrase.
import { closestTag, collapseSpace, elementText, firstTagInside, headingRank as rank, isProse, sectionOf, tagNames, type El } from './dom.js';
import { anyOf, phraseTest, wordsOf } from './lexicon/compile.js';
import { DATE_LINE_WORDS, MONTH_NAMES, ORDINAL_SUFFIXES, TIME_SUFFIXES } from './lexicon/dates.js';
import { ADVERT_LABELS, ALL_SECTION_LABELS, allLabels, SHARE_LABELS } from './lexicon/labels.js';
import {
  ACTION_OBJECTS,
  ACTION_OBJECTS_AFTER,
  ACTION_VERBS,
  ACTION_THIS,
  ACTION_VERBS_BEFORE,
  AUTHOR_PRONOUNS,
  AUTHOR_ROLES,
  CITATION_LABELS,
  COMMENT_RULES,
  LOGIN_COMMENT_STEMS,
  LOGIN_COMMENT_WORDS,
  COPYRIGHT_OPENINGS,
  COUNTER_LABELS,
  CREDIT_LINE_LABELS,
  CREDIT_LINE_OPENINGS,
  CREDIT_MARKS,
  DISCLOSURES,
  EMBED_PLACEHOLDER_OPENINGS,
  EMBED_PLACEHOLDER_PHRASES,
  FOLLOW_US,
  KNOW_OUR_OPENINGS,
  KNOW_OUR_PHRASES,
  LIKED_IT,
  LINE_PHRASES,
  LISTING_COUNTER,
  LOGIN_AFTER_WORDS,
  LOGIN_WORDS,
  NEWSROOM_LABELS,
  NEWSROOM_WORDS,
  NEXT_PART,
  NO_RATINGS,
  OPINION_DISCLAIMERS,
  PERMALINK_LABELS,
  PICTURE_WIDGET_ACTIONS,
  PICTURE_WIDGET_NOUNS,
  PICTURE_WIDGET_PLURALS,
  POST_FILED_UNDER,
  POST_FILED_WORDS,
  READING_TIME,
  SHARE_OBJECTS,
  SHOP_POINTERS,
  STAMP_DOMAINS,
  TAXONOMY_LABELS,
  TOGGLES,
  VALUE_LABELS,
} from './lexicon/lines.js';
import { COPYRIGHT_NOTICES, PAYWALL_ACCOUNT, PAYWALL_READ_ON, PICTURE_AGENCIES, SOCIAL_NETWORKS } from './lexicon/notices.js';
import { rememberedByText } from './text-verdicts.js';

/**
 * Headings that open a section of links to elsewhere, of comments or of sharing buttons, in the languages
 * most common on the web. The whole heading must match (optionally with trailing punctuation).
 */
const SECTION_HEADING = new RegExp(`^(\\d+\\s+)?(${ALL_SECTION_LABELS.join('|')})[\\s:!.…?»›>-]*$`, 'i');

/** "Posted on … and filed under …": the date and categories of a post. */
const POST_FILED = new RegExp(`\\b${anyOf(POST_FILED_WORDS)}\\b.{0,80}\\b${anyOf(POST_FILED_UNDER)}\\b`, 'i');

const LOGIN = anyOf(LOGIN_WORDS);

/** Short lines that are labels, credits, notices or pitches wherever they stand (the words: lexicon/lines.ts). */
const BOILERPLATE_LINE: RegExp[] = [
  // Photo credits and sources: "Foto: …", "Bild: …", "Credit: …", "© Agency", "(c) Name".
  phraseTest('^[([]?', CREDIT_LINE_LABELS, '\\s*(:|©|\\/|by\\b)'),
  phraseTest('^', CREDIT_LINE_OPENINGS, '\\b'),
  // A caption line naming a picture agency or stock library.
  new RegExp(`${anyOf(CREDIT_MARKS)}.{0,60}$|\\b${anyOf(PICTURE_AGENCIES)}\\b`, 'i'),
  // Advert labels.
  new RegExp(`^[-–—[(]*\\s*(${allLabels(ADVERT_LABELS).join('|')})\\s*[-–—\\])]*:?$`, 'i'),
  // Copyright and licence notices.
  phraseTest('\\b', COPYRIGHT_NOTICES, '\\b'),
  phraseTest('^', COPYRIGHT_OPENINGS, ''),
  // Login walls for comments, and comment prompts.
  new RegExp(`\\b${LOGIN}\\b.{0,80}\\b${anyOf(LOGIN_COMMENT_WORDS)}|\\b${anyOf(LOGIN_COMMENT_STEMS)}\\w*\\b.{0,80}\\b${anyOf(LOGIN_AFTER_WORDS)}\\b`, 'i'),
  // Placeholders of embeds waiting for consent.
  phraseTest('^', EMBED_PLACEHOLDER_OPENINGS, '\\b'),
  phraseTest('\\b', EMBED_PLACEHOLDER_PHRASES, '\\b'),
  // "Follow us" pitches.
  new RegExp(
    `\\b${FOLLOW_US.en.before} (${FOLLOW_US.en.us}|[\\w.]+( [\\w.]+)?) ${FOLLOW_US.en.after} ${anyOf(SOCIAL_NETWORKS)}\\b|\\b${FOLLOW_US.de.before} (${FOLLOW_US.de.us}|[\\w.]+) ${FOLLOW_US.de.after}\\b`,
    'i',
  ),
  // Newsletter and support pitches, affiliate disclosures, app pitches, appeals, notices (one test per kind).
  ...Object.values(LINE_PHRASES).map((table) => phraseTest('\\b', table, '\\b')),
  // Rules for commenting, a listing's "1 to 10 of 19" counter, the site's licence notice, and "did you like
  // this article?" pitches.
  phraseTest('\\b', COMMENT_RULES, '\\b', 'iu'),
  new RegExp(`\\b\\d+ ${anyOf(LISTING_COUNTER.to)} \\d+ ${anyOf(LISTING_COUNTER.of)} ${anyOf(LISTING_COUNTER.total)}?\\d+ \\p{L}`, 'iu'),
  phraseTest('\\b', LIKED_IT, ''),
  // Pointers to the site's shop and sign-up offers.
  phraseTest('\\b', SHOP_POINTERS, '\\b', 'iu'),
  // Share, print and like bars left as text.
  new RegExp(`^(${allLabels(SHARE_LABELS).join('|')})( ${anyOf(SHARE_OBJECTS)})?\\W*$`, 'i'),
  // Action buttons left as text: "Tipp favorisieren", "Rezept merken", "Save article".
  new RegExp(`^${anyOf(ACTION_OBJECTS)} ${anyOf(ACTION_VERBS)}$|^${anyOf(ACTION_VERBS_BEFORE)} (${ACTION_THIS} )?${anyOf(ACTION_OBJECTS_AFTER)}$`, 'i'),
  // A pointer to the next page of a series: "… weiter zu „Part two“", "Continue to part 2".
  phraseTest('^(\\.{2,}|…)?\\s*', NEXT_PART, '\\s.{1,60}$'),
  // Disclaimers, post metadata ("Posted on … and filed under …") and prompts to comment.
  phraseTest('\\b', OPINION_DISCLAIMERS, ''),
  POST_FILED,
  // Counters and the labels of picture and rating widgets.
  phraseTest('^', COUNTER_LABELS, '\\s*:?\\s*[\\d.,]+$'),
  new RegExp(`^\\(?(${NO_RATINGS.yet.join('|')})?${anyOf(NO_RATINGS.no)} ${anyOf(NO_RATINGS.what)}(${NO_RATINGS.after.join('|')})?\\)?$`, 'i'),
  new RegExp(`^${anyOf(PICTURE_WIDGET_NOUNS)}${anyOf(PICTURE_WIDGET_PLURALS)}? ${anyOf(PICTURE_WIDGET_ACTIONS)}\\b`, 'i'),
  // A metadata label whose value sits in another element ("Von:", "Release Date:"): alone, it says nothing.
  phraseTest('^', VALUE_LABELS, '\\s*:$'),
  // Taxonomy lines: "Tags: a, b", "Category : Press Releases", "Kategorie: News".
  phraseTest('^', TAXONOMY_LABELS, '\\s*:\\s*\\S.{0,100}$'),
  // Reading-time notes: "5 min read", "Lesezeit: 4 Minuten", "Ten tekst przeczytasz w mniej niż minutę".
  new RegExp(
    `^(\\d+\\s?${anyOf(READING_TIME.units)}\\s+${anyOf(READING_TIME.after)}|${anyOf(READING_TIME.labels)}\\s*:?\\s*\\d+\\s?\\p{L}*)\\W*$|\\b${anyOf(READING_TIME.phrases)}\\b`,
    'iu',
  ),
  // How to cite the page.
  phraseTest('^', CITATION_LABELS, '\\b'),
  // The site speaking of itself: "Kennt ihr schon unseren …?", "¿Ya sabías que … tenemos canal …?".
  phraseTest('^', KNOW_OUR_OPENINGS, '\\b'),
  phraseTest('\\b', KNOW_OUR_PHRASES, '\\b'),
  // A permanent short link to the page ("Permalink https://…"), a toggle that shows or hides a box ("Quellen
  // ausblenden", "Show more"), and the newsroom named as the author ("Artikel Redaktion Example", "Online-Redaktion").
  phraseTest('^', PERMALINK_LABELS, '\\s*:?\\s*(https?:\\/\\/\\S+)?$'),
  phraseTest('^', TOGGLES, '$'),
  new RegExp(`^(${anyOf(NEWSROOM_LABELS)}\\s*:?\\s+)?${anyOf(NEWSROOM_WORDS)}(\\s+[\\p{L}\\d.&-]+){0,3}$`, 'iu'),
];

/**
 * Disclosures told by phrases that only a site speaking of itself uses; they run longer than a line (a
 * disclosure paragraph), so they are judged up to MAX_DISCLOSURE_CHARS.
 */
const DISCLOSURE: RegExp[] = DISCLOSURES.map((table) => phraseTest('\\b', table, '\\b'));
const MAX_DISCLOSURE_CHARS = 500;

/**
 * A short note about the author closing an article ("Jane Doe is the founder of …", "Er ist Redakteur …", "She
 * has been writing about … since 2008"): the sentence opens with a name or pronoun, then a role or a career.
 * Judged only for the article's last blocks, where author boxes sit; mid-article, such a sentence is news.
 */
const NAME = `((\\p{Lu}[\\p{L}'’.-]*\\s+){1,4}|${anyOf(AUTHOR_PRONOUNS)}\\s+)?`;
const AUTHOR_BIO = new RegExp(`^${NAME}${anyOf(AUTHOR_ROLES)}`, 'iu');
const MAX_BIO_CHARS = 600;

export function isAuthorBio(s: string): boolean {
  // Any of the first sentences may carry it: "Alice Wu fell for politics at 12. She has been writing …".
  return (
    s.length <= MAX_BIO_CHARS &&
    s
      .split(/(?<=[.!?])\s+/)
      .slice(0, 3)
      .some((x) => AUTHOR_BIO.test(x))
  );
}

/**
 * The last `count` innermost blocks holding text (no block inside them), last first. Searched from the end:
 * only the article's close is asked for, and testing every block of a long article was most of the cost.
 */
function lastTextBlocks(root: El, count: number): El[] {
  const all = Array.from(root.querySelectorAll('*')) as El[];
  const out: El[] = [];
  for (let i = all.length - 1; i >= 0 && out.length < count; i--) {
    const el = all[i]!;
    if (!INLINE.has(el.tagName) && !hasBlockChild(el) && text(el) !== '' && (el.parentElement === root || hasBlockChild(el.parentElement as El))) out.push(el);
  }
  return out;
}

/** Removes author notes among the last two text blocks of the article. */
function pruneClosingBio(root: El): void {
  const blocks = lastTextBlocks(root, 2);
  for (const el of blocks) {
    if (!isAuthorBio(text(el))) break;
    el.remove();
    forget();
  }
}

const MONTHS = wordsOf(MONTH_NAMES).join('|');
const DATE = new RegExp(
  `\\b(\\d{1,2}\\.\\s?\\d{1,2}\\.\\s?\\d{2,4}|\\d{4}-\\d{2}-\\d{2}(t[\\d:.+]+)?|\\d{1,2}/\\d{1,2}/\\d{2,4}|\\d{1,2}\\.?\\s+(${MONTHS})\\.?\\s+\\d{4}|(${MONTHS})\\.?\\s+\\d{1,2}${anyOf(ORDINAL_SUFFIXES)}?,?\\s+\\d{4}|\\d{1,2}:\\d{2}(:\\d{2})?(\\s?${anyOf(TIME_SUFFIXES)})?)`,
  'gi',
);
/** Words that surround a date in a byline or dateline. */
const DATE_WORDS = phraseTest('\\b', DATE_LINE_WORDS, '\\b', 'gi');

const INLINE = new Set(['SPAN', 'STRONG', 'B', 'A']);
const LINE_TAGS = new Set(['P', 'DIV', 'CENTER', 'SPAN', 'SMALL', 'TIME', 'LI', 'FIGCAPTION', 'STRONG', 'B', 'EM', 'I', 'CITE', 'ADDRESS', 'H4', 'H5', 'H6']);
/** Longest text judged as a line. */
const MAX_LINE_CHARS = 200;

const BLOCK_TAGS = tagNames('p', 'div', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'figure', 'section', 'article');
const CODE_OR_TABLE = tagNames('pre', 'code', 'table');

/**
 * What pruneBoilerplateText reads of its blocks, kept while it runs: the heading pass and the two line passes
 * ask the same blocks (and their parents) the same questions, and on a long article each reading was a walk of
 * the block. Only removals change the tree there, and each one forgets everything read (`forget`).
 */
let readings: { texts: Map<El, string>; blockChild: Map<El, boolean> } | undefined;

function forget(): void {
  readings?.texts.clear();
  readings?.blockChild.clear();
}

/** The element's text as the reader sees it (elementText), read once while pruneBoilerplateText runs. */
function text(el: El): string {
  if (!readings) return elementText(el);
  let t = readings.texts.get(el);
  if (t === undefined) {
    t = elementText(el);
    readings.texts.set(el, t);
  }
  return t;
}

function hasBlockChild(el: El): boolean {
  if (!readings) return firstTagInside(el, BLOCK_TAGS) !== null;
  let has = readings.blockChild.get(el);
  if (has === undefined) {
    has = firstTagInside(el, BLOCK_TAGS) !== null;
    readings.blockChild.set(el, has);
  }
  return has;
}

/** A publication or update date with little else: "Updated: 3 May 2021, 10:27", "24.03.2004 | 19:49". */
export function isDateLine(s: string): boolean {
  if (s.length > 80 || !DATE.test(s)) return false;
  DATE.lastIndex = 0;
  const rest = s
    .replace(DATE, ' ')
    .replace(DATE_WORDS, ' ')
    .replace(/[^\p{L}]+/gu, '');
  DATE.lastIndex = 0;
  DATE_WORDS.lastIndex = 0;
  return rest.length <= 3;
}

/**
 * A date line followed by one short label after a separator: "24. März 2004, 19:49 | Genesis", "2021-10-16 |
 * Botschaft" (the date and section of a post, or of a comment).
 */
function isDateLabelLine(s: string): boolean {
  const parts = s.split(/\s[|·•]\s/);
  const [date, label] = parts;
  return s.length <= 80 && parts.length === 2 && isDateLine(date?.trim() ?? '') && /^[\p{L}-]+( [\p{L}-]+)?\W*$/u.test(label?.trim() ?? '');
}

export const isBoilerplateLine = rememberedByText(
  (s) =>
    (s.length <= MAX_LINE_CHARS && (BOILERPLATE_LINE.some((re) => re.test(s)) || isDateLine(s) || isDateLabelLine(s))) ||
    (s.length <= MAX_DISCLOSURE_CHARS && DISCLOSURE.some((re) => re.test(s))),
  Math.max(MAX_LINE_CHARS, MAX_DISCLOSURE_CHARS),
);

export const isSectionHeading = rememberedByText((s) => (s.length <= 60 && SECTION_HEADING.test(s)) || isPaywall(s), MAX_LINE_CHARS);

/**
 * The heading of a paywall box: "To continue reading, create your free account", "Pour lire la suite, créez
 * votre compte". Reading on and an account or a subscription in one short line.
 */
const PAYWALL_READ = phraseTest('\\b', PAYWALL_READ_ON, '\\b');
const PAYWALL_ACCOUNT_WORDS = phraseTest('\\b', PAYWALL_ACCOUNT, '\\b');

function isPaywall(s: string): boolean {
  return s.length <= MAX_LINE_CHARS && PAYWALL_READ.test(s) && PAYWALL_ACCOUNT_WORDS.test(s);
}

/**
 * Removes sections opened by a boilerplate heading (the heading and what follows it up to the next heading
 * of the same or a higher rank), then short boilerplate lines. `total` bounds what one section may take.
 */
export function pruneBoilerplateText(root: El, total: number): void {
  readings = { texts: new Map(), blockChild: new Map() };
  try {
    pruneTextBlocks(root, total);
  } finally {
    readings = undefined;
  }
}

function pruneTextBlocks(root: El, total: number): void {
  const candidates = Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6, p, div, span, strong, b, li, dt, header, a')) as El[];
  // What the sections under each label hold together, read before any goes: a page that repeats one heading
  // over its content ("Categories" above each half of a directory) is not a page of boxes.
  const byLabel = new Map<string, number>();
  const label = (el: El) => text(el).toLowerCase();
  for (const el of candidates) if (isLabelHeading(el)) byLabel.set(label(el), (byLabel.get(label(el)) ?? 0) + sectionChars(el, root));
  for (const el of candidates) {
    if (!el.isConnected || !isLabelHeading(el)) continue;
    removeSection(el, root, total, byLabel.get(label(el)) ?? 0);
    forget();
  }
  // Twice: a line emptied of its date by the first pass ("Published: <time>…</time>") is left a bare label.
  // A first pass that removed nothing left the tree as it was, so a second would judge it alike and is skipped
  // (most pages: on a long article each pass reads every paragraph).
  if (pruneLines(root)) pruneLines(root);
  pruneClosingBio(root);
}

/** One pass of the line rules over the blocks of `root`; whether it removed any. */
function pruneLines(root: El): boolean {
  let removed = false;
  for (const el of Array.from(root.querySelectorAll('*')) as El[]) {
    if (!el.isConnected || !LINE_TAGS.has(el.tagName) || hasBlockChild(el) || closestTag(el, CODE_OR_TABLE)) continue;
    const s = text(el);
    if (phraseOfLine(el, s)) continue;
    if (s && (isBoilerplateLine(s) || isFiledUnder(el, s) || isMetadataLines(el) || isDomainStamp(el, s) || isDanglingLabel(el, s))) {
      el.remove();
      forget();
      removed = true;
    }
  }
  return removed;
}

/**
 * An inline element set among words of its line ("Retrieved <span>2016-05-01</span>", a date inside a
 * citation) is a phrase of that line, not a line of its own: the line is judged whole, as its block.
 */
function phraseOfLine(el: El, s: string): boolean {
  if (!PHRASE_TAGS.has(el.tagName)) return false;
  const parent = el.parentElement as El | null;
  if (!parent || text(parent) === s) return false;
  const words = (node: ChildNode | null, step: 'previousSibling' | 'nextSibling'): boolean => {
    for (; node; node = node[step]) {
      if (node.nodeType === 1 && (node as unknown as El).tagName === 'BR') return false;
      if (/[\p{L}\p{N}]/u.test(node.textContent ?? '')) return true;
    }
    return false;
  };
  // A label before it ("Release date: <time>…") announces it as a value: the line is a label and its value.
  const before = (el.previousSibling?.textContent ?? '').trim();
  if (before.endsWith(':') && !words(el.nextSibling as ChildNode | null, 'nextSibling')) return false;
  return words(el.previousSibling as ChildNode | null, 'previousSibling') || words(el.nextSibling as ChildNode | null, 'nextSibling');
}

/** A domain name and nothing else: "EXAMPLENEWS.COM". */
const DOMAIN = new RegExp(`^(www\\.)?[\\p{L}\\d-]+\\.${anyOf(STAMP_DOMAINS)}$`, 'iu');

/**
 * The site's domain standing alone as a line, the stamp under a news item. A domain inside a sentence is
 * the prose's word, and a linked one is a pointer the writer gave (a list of sources).
 */
function isDomainStamp(el: El, s: string): boolean {
  if (!DOMAIN.test(s) || el.closest('a, li') || el.querySelector('a')) return false;
  // Out of the inline wrappers it is alone in ("<p><strong><span>…"): the block holding it must hold it alone.
  let top = el;
  while (top.parentElement && text(top.parentElement as El) === s) top = top.parentElement as El;
  // One that heads a list or table is its label ("Example.com" over the terms of that payment service).
  const next = top.nextElementSibling as El | null;
  return !PHRASE_TAGS.has(top.tagName) && !(next && ['UL', 'OL', 'DL', 'TABLE'].includes(next.tagName));
}
const PHRASE_TAGS = new Set(['SPAN', 'STRONG', 'B', 'EM', 'I', 'SMALL', 'CITE', 'TIME', 'U', 'MARK', 'FONT']);

/** A label that announces a value: "This page:", "Share:". */
const LABEL = /^[\p{L}][\p{L} -]{0,29}:$/u;

/**
 * A label with nothing after it: what it announced was a row of icons or a widget that is gone ("This page:"
 * over print and PDF buttons). A label followed by text is the heading of that text.
 */
function isDanglingLabel(el: El, s: string): boolean {
  if (!LABEL.test(s)) return false;
  let top = el;
  while (top.parentElement && text(top.parentElement as El) === s) top = top.parentElement as El;
  // Only a line of its own: a phrase ending a sentence with a colon ("… differs from others:") is no label.
  if (INLINE.has(top.tagName) || PHRASE_TAGS.has(top.tagName)) return false;
  for (let sib = top.nextElementSibling as El | null; sib; sib = sib.nextElementSibling as El | null) if (text(sib)) return false;
  for (let node = top.nextSibling; node; node = node.nextSibling) if ((node.textContent ?? '').trim()) return false;
  return true;
}

/**
 * A block of metadata lines, each a label of its own: "24.01.2022 11:38<br>Category: News", "News date :
 * 04/21/2022&nbsp;&nbsp;&nbsp;Category : Press Releases". Judged whole, the date and the category make a
 * line no rule knows; split at line breaks, separators and runs of spaces, every part is boilerplate.
 */
function isMetadataLines(el: El): boolean {
  const parts: string[] = [''];
  for (let node = el.firstChild as El | null; node; node = node.nextSibling as El | null) {
    if (node.tagName === 'BR') parts.push('');
    else parts[parts.length - 1] += node.textContent ?? '';
  }
  // One part that nothing splits is one line at most (most paragraphs): no need to split and collapse it.
  if (parts.length === 1 && !LINE_SEPARATOR.test(parts[0]!)) return false;
  const lines = parts
    .flatMap((p) => p.split(LINE_SEPARATOR))
    .map((p) => collapseSpace(p))
    .filter(Boolean);
  return lines.length >= 2 && lines.length <= 4 && lines.every((l) => l.length <= MAX_LINE_CHARS && isBoilerplateLine(l));
}

/** What splits a block's text into lines (isMetadataLines): a new line, a separator, a run of spaces. */
const LINE_SEPARATOR = /\n|\s[|·•]\s|[\s\u00a0]{3,}/;

/**
 * The agency or initials that sign a news item ("aja/PAP", "dpa/lno", "(AFP)", "RIRM") or the site's domain
 * stamped under it: a last line of one short token, not prose.
 */
const SIGNATURE = /^[([]?(\p{L}{1,8}(\s?\/\s?\p{L}{1,8})+|\p{Lu}{2,6})[)\]]?$/u;

/** Run after the link lists that close a page are gone, so that the signature is the last line. */
export function pruneClosingSignature(root: El): void {
  const last = lastTextBlocks(root, 1)[0];
  if (last && SIGNATURE.test(text(last))) last.remove();
}

/**
 * An inline element set on a line of its own: nothing but line breaks, blocks or the edge of its parent
 * before and after it ("<strong>Was this useful?</strong><br>…", "<span>Further reading</span><p>…").
 */
function onLineOfItsOwn(el: El): boolean {
  // In a list item, such a line is the item's own title ("<li><strong>Newsletter</strong><br>We agreed …").
  if (el.closest('li')) return false;
  const alone = (node: ChildNode | null, step: 'previousSibling' | 'nextSibling'): boolean => {
    while (node && node.nodeType === 3 && !(node.textContent ?? '').trim()) node = node[step];
    if (!node) return true;
    const tag = (node as unknown as El).tagName;
    return tag === 'BR' || tag === 'HR' || (tag !== undefined && !INLINE.has(tag) && !PHRASE_TAGS.has(tag) && tag !== 'IMG');
  };
  return alone(el.previousSibling as ChildNode | null, 'previousSibling') && alone(el.nextSibling as ChildNode | null, 'nextSibling');
}

/**
 * A "filed under" line is long when it lists many categories; its words outside the category links are
 * what is judged as a line.
 */
function isFiledUnder(el: El, s: string): boolean {
  if (s.length <= MAX_LINE_CHARS || !POST_FILED.test(s)) return false;
  let links = 0;
  for (const a of Array.from(el.querySelectorAll('a'))) links += text(a as El).length;
  return s.length - links <= MAX_LINE_CHARS;
}

/** Whether `el` is a line that heads a box by its label alone ("Related articles", "Categories"). */
function isLabelHeading(el: El): boolean {
  if (hasBlockChild(el)) return false;
  const s = text(el);
  if (!isSectionHeading(s)) return false;
  // An inline element is a heading only when it stands alone, not as a phrase inside a sentence.
  return !INLINE.has(el.tagName) || text(el.parentElement as El) === s || onLineOfItsOwn(el);
}

/** The heading's section: the wrappers it is alone in, and the siblings after it until a heading that outranks it. */
function sectionParts(heading: El, root: El): El[] {
  return sectionOf(
    heading,
    root,
    (sib, level) =>
      // A heading inside the next block that outranks this one starts what follows.
      (!/^H[1-6]$/.test(sib.tagName) && (Array.from(sib.querySelectorAll('h1, h2, h3, h4, h5, h6')) as El[]).some((x) => rank(x) < level)) ||
      // A label that is not a heading ("Advertisement:", "Share this") heads a box, not the rest of the
      // article: prose after it is the article resuming.
      (level === 7 && isProse(sib)),
  );
}

/** The text length of what follows the heading in its section. */
function sectionChars(heading: El, root: El): number {
  return sectionParts(heading, root)
    .slice(1)
    .reduce((n, el) => n + text(el).length, 0);
}

/**
 * Removes the heading and its section (sectionParts). `labelChars`: what the sections under the same label
 * hold together on the page.
 */
function removeSection(heading: El, root: El, total: number, labelChars: number): void {
  const [start, ...rest] = sectionParts(heading, root);
  const chars = rest.reduce((n, el) => n + text(el).length, 0);
  // A section as large as the rest of the page is not a "related" box, nor are sections under one label that
  // together are: only the heading goes.
  if (Math.max(chars, labelChars) > 0.5 * total) {
    heading.remove();
    return;
  }
  for (const el of [start!, ...rest]) el.remove();
}
