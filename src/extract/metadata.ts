// What agents ask of a page besides its body: title, author, date, language, site and a summary. Read from
// the page's own declarations first (JSON-LD, then OpenGraph and other meta tags, then <html lang> and
// <time>), because those are what the publisher states; Readability's guesses from the text come after.
// Read before the noise is removed: that step drops <script> and <meta>.
import { collapseSpace, type Doc } from './dom.js';
import { ARTICLE_SCHEMA_TYPES } from './lexicon/class-names.js';
import { META_NAMES } from './lexicon/meta-names.js';

export interface PageMetadata {
  title: string;
  byline: string;
  /** ISO 8601 as the page states it (date, or date and time), or "" when the page gives none. */
  published_at: string;
  lang: string;
  site_name: string;
  excerpt: string;
}

/** What Readability read from the same page, used where the page declares nothing. */
export interface ReadabilityGuess {
  title?: string | null;
  byline?: string | null;
  excerpt?: string | null;
  siteName?: string | null;
  publishedTime?: string | null;
  lang?: string | null;
}

/** Field lengths kept: a metadata field is a line, not a second body. */
const MAX_FIELD_CHARS = 500;
const MAX_EXCERPT_CHARS = 1_000;
/** JSON-LD blocks larger than this are data dumps (a product catalogue), not the page's description. */
const MAX_JSON_LD_CHARS = 200_000;

const ARTICLE_TYPES = new RegExp(ARTICLE_SCHEMA_TYPES.join('|'));

export function readMetadata(doc: Doc): PageMetadata {
  const meta = metaTags(doc);
  const ld = jsonLdArticle(doc);
  const timeEl = doc.querySelector('article time[datetime], time[datetime]');
  const first = (names: readonly string[]) => names.map((n) => meta.get(n)).find(Boolean) ?? '';
  return {
    title: clip(ld.headline || first(META_NAMES.title) || doc.querySelector('title')?.textContent || ''),
    byline: clip(ld.author || first(META_NAMES.byline)),
    published_at: isoDate(ld.datePublished || first(META_NAMES.published) || timeEl?.getAttribute('datetime') || ''),
    lang: clip(doc.documentElement?.getAttribute('lang') || meta.get('og:locale')?.replace('_', '-') || meta.get('content-language') || ''),
    site_name: clip(first(META_NAMES.siteName) || ld.publisher || first(META_NAMES.siteNameFallback)),
    excerpt: clip(first(META_NAMES.description) || ld.description, MAX_EXCERPT_CHARS),
  };
}

/** Fills what the page does not declare from Readability's reading of it. */
export function withReadabilityGuess(declared: PageMetadata, guess: ReadabilityGuess | undefined): PageMetadata {
  if (!guess) return declared;
  return {
    title: declared.title || clip(guess.title ?? ''),
    byline: declared.byline || clip(guess.byline ?? ''),
    published_at: declared.published_at || isoDate(guess.publishedTime ?? ''),
    lang: declared.lang || clip(guess.lang ?? ''),
    site_name: declared.site_name || clip(guess.siteName ?? ''),
    excerpt: declared.excerpt || clip(guess.excerpt ?? '', MAX_EXCERPT_CHARS),
  };
}

/**
 * Words in Markdown as a reader counts them: link targets and markup do not count, each CJK character is a
 * word (those scripts do not separate words by spaces).
 */
export function wordCount(markdown: string): number {
  const text = markdown.replace(/\]\([^)]*\)/g, ']');
  // The matches of WORD counted by a scan of code points, each classed once: a regular expression with
  // Unicode properties tried at every character cost more than the rest of the tidying of a long article.
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length;) {
    const unit = text.charCodeAt(i);
    let kind: number;
    if (unit < 0xd800 || unit > 0xdbff) {
      i++;
      kind = BMP_KINDS[unit]!;
      if (kind === UNCLASSED) kind = BMP_KINDS[unit] = classify(unit);
    } else {
      // A high surrogate: the code point it starts (or itself, alone) is classed each time; such text is rare.
      const cp = text.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
      kind = classify(cp);
    }
    if (inWord && kind & CONTINUES) continue;
    inWord = false;
    if (kind & CJK) n++;
    else if (kind & STARTS) {
      n++;
      inWord = true;
    }
  }
  return n;
}
/** A word: one CJK character, or a letter or digit and what continues it (never empty, so the count ends). */
const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}][\p{L}\p{M}\p{N}'’.-]*/gu;
const CJK_CHAR = new RegExp(`^(?:${WORD.source.split('|')[0]})$`, 'u');
const WORD_START = /^[\p{L}\p{N}]$/u;
const WORD_PART = /^[\p{L}\p{M}\p{N}'’.-]$/u;
/** Kinds of a code point as WORD reads it: a CJK word alone, a word's start, a word's continuation. */
const CJK = 1;
const STARTS = 2;
const CONTINUES = 4;
const UNCLASSED = 0xff;
/** Kinds of the Basic Multilingual Plane's code units, filled as they are met. */
const BMP_KINDS = new Uint8Array(0x10000).fill(UNCLASSED);
// Markup is no word and ends one, as if replaced by a space ("-" would otherwise continue a word).
for (const c of '#*_`>|[]!-') BMP_KINDS[c.charCodeAt(0)] = 0;

function classify(cp: number): number {
  const c = String.fromCodePoint(cp);
  return (CJK_CHAR.test(c) ? CJK : 0) | (WORD_START.test(c) ? STARTS : 0) | (WORD_PART.test(c) ? CONTINUES : 0);
}

function clip(s: string, max = MAX_FIELD_CHARS): string {
  return collapseSpace(s).slice(0, max);
}

/** Lower-cased name (or property) → first non-empty content. */
function metaTags(doc: Doc): Map<string, string> {
  const out = new Map<string, string>();
  for (const el of Array.from(doc.querySelectorAll('meta[content]'))) {
    const key = (el.getAttribute('property') || el.getAttribute('name') || el.getAttribute('http-equiv') || '').trim().toLowerCase();
    const value = collapseSpace(el.getAttribute('content') ?? '');
    if (key && value && !out.has(key)) out.set(key, value);
  }
  return out;
}

interface LdArticle {
  headline: string;
  author: string;
  datePublished: string;
  publisher: string;
  description: string;
}

/** The first JSON-LD object of an article-like type, flattened to the fields read here. */
function jsonLdArticle(doc: Doc): LdArticle {
  const empty: LdArticle = { headline: '', author: '', datePublished: '', publisher: '', description: '' };
  for (const script of Array.from(doc.querySelectorAll('script[type="application/ld+json"]'))) {
    const raw = script.textContent ?? '';
    if (raw.length > MAX_JSON_LD_CHARS) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(withoutCdata(raw));
    } catch {
      continue;
    }
    const found = findArticle(parsed, 0);
    if (found)
      return {
        headline: text(found.headline) || text(found.name),
        author: names(found.author),
        datePublished: text(found.datePublished) || text(found.dateCreated),
        publisher: names(found.publisher),
        description: text(found.description),
      };
  }
  return empty;
}

/**
 * The JSON of a block some pages wrap in a CDATA section (a habit from XHTML, where a script's text had to
 * be escaped that way): in HTML the wrapper is plain text around the JSON.
 */
function withoutCdata(raw: string): string {
  const m = /^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/.exec(raw);
  return m ? m[1]! : raw;
}

type LdNode = Record<string, unknown>;

function findArticle(value: unknown, depth: number): LdNode | undefined {
  if (depth > 4 || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const v of value) {
      const found = findArticle(v, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  const node = value as LdNode;
  const types = ([] as unknown[]).concat(node['@type'] ?? []).filter((t): t is string => typeof t === 'string');
  if (types.some((t) => ARTICLE_TYPES.test(t)) && (node.headline || node.datePublished || node.author)) return node;
  return findArticle(node['@graph'], depth + 1) ?? findArticle(node.mainEntity, depth + 1);
}

function text(v: unknown): string {
  return typeof v === 'string' ? collapseSpace(v) : typeof v === 'number' ? String(v) : '';
}

/** An author or publisher: a name, an object with a name, or a list of those. */
function names(v: unknown): string {
  const list = (Array.isArray(v) ? v : [v])
    .map((a) => (typeof a === 'string' ? a : a && typeof a === 'object' ? text((a as LdNode).name) : ''))
    .map(collapseSpace)
    .filter(Boolean);
  return [...new Set(list)].join(', ');
}

/** A date the page states, normalised to ISO 8601 when it parses; "" when it does not. */
function isoDate(s: string): string {
  const v = collapseSpace(s);
  if (!v) return '';
  // A plain date stays a date: turning it into midnight UTC would invent a time and maybe shift the day.
  if (/^\d{4}-\d{2}-\d{2}$/.test(v)) return v;
  const t = Date.parse(v);
  return Number.isNaN(t) ? '' : new Date(t).toISOString();
}
