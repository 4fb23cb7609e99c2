// Rendered HTML → Markdown an LLM can read without the site's chrome. For `main` content, Readability picks
// the article on a copy of the page, and the boilerplate it keeps (comment threads, share bars, related
// links, link-dense blocks) is pruned from it; the same pruning applied to the whole body is the fallback
// when Readability finds nothing or only a sliver of a page that is not an article (a listing). A second
// opinion by text density (prose-container) overrules Readability when its pick misses most of the page's
// densest prose (it crowned a list of names, or an author box). Pruning that would leave nothing is undone
// in part: a long pick emptied by names alone (a ticker's "comment" cards) is pruned by links only, and a
// page emptied by link pruning (a post of bookmarked links) keeps its link lists. `full`
// converts the whole body, only scripts, styles and hidden machinery removed. Turndown converts with GFM
// tables, fenced code blocks that keep their language, and the absolute links the page script produced.
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';
import { pruneBoilerplate } from './boilerplate.js';
import { stripCredits } from './credits.js';
import { collapseSpace as normalisedText, textLength, type Doc, type El } from './dom.js';
import { relaxEscapes } from './markdown-escapes.js';
import { readMetadata, withReadabilityGuess, wordCount, type PageMetadata, type ReadabilityGuess } from './metadata.js';
import { paragraphs, proseContainer, type Paragraph } from './prose-container.js';
import { belowFloor } from './readability-floor.js';
import { restoreSectionHeadings } from './section-headings.js';
import { withSiblingBoxes } from './sibling-blocks.js';
import { TextFinder } from './text-finder.js';

/** The pruned article's text must be at least this share of the pruned body's text to be used… */
export const READABILITY_MIN_SHARE = 0.25;
/** …and at least this long: below it Readability's pick is a guess (a single card of a listing). */
export const READABILITY_MIN_CHARS = 200;
/** An article this long is used whatever the share: the page around it is then a portal, not a listing. */
export const READABILITY_SURE_CHARS = 2_000;

/** Share of the densest block's prose that Readability's pick must contain to be trusted. */
export const MIN_PROSE_COVERAGE = 0.5;
/** …unless that block holds less prose than this share of the pick's text. */
export const DENSE_MIN_SHARE_OF_PICK = 0.5;

export type MarkdownContent = 'main' | 'full';

export interface MarkdownResult extends Omit<PageMetadata, 'title'> {
  /** The body only: no title, byline, date or standfirst put in front (those are the fields). */
  markdown: string;
  title: string;
  /**
   * Which path won: the article we found ('article'), Readability's own pick kept because ours held much
   * less of it ('readability'), or the (cleaned) page body ('page').
   */
  source: 'article' | 'readability' | 'page';
  word_count: number;
}

const ALWAYS_REMOVE = [
  'script',
  'style',
  'template',
  'iframe',
  'object',
  'embed',
  'canvas',
  'svg',
  'dialog',
  'button',
  'input',
  'select',
  'textarea',
  'option',
  'link',
  'meta',
  // Ruby annotations (furigana): the reading of the base text, which would otherwise be read twice.
  'rt',
  'rp',
  '[role="dialog"]',
  '[role="alertdialog"]',
  '[aria-modal="true"]',
  '[role="search"]',
];
/** A form with less text than this is a search box, a login or a newsletter sign-up; larger ones wrap content. */
const SMALL_FORM_CHARS = 500;
const COOKIE_BANNER = /(^|[\s_-])(cookie|cookies|consent|gdpr|ccpa|onetrust|cookiebot|didomi|truste|cmp|cc-window|cc-banner|privacy-banner)([\s_-]|$)/i;

export function htmlToMarkdown(input: string, pageTitle: string, content: MarkdownContent = 'main'): MarkdownResult {
  // linkedom needs a whole document; a serialised page always is one, a fragment gets wrapped.
  const html = /<html[\s>]/i.test(input) ? input : /<body[\s>]/i.test(input) ? `<html>${input}</html>` : `<html><body>${input}</body></html>`;
  const page = parseHTML(html).document;
  const declared = readMetadata(page);
  removeNoise(page);
  let body = (page.body ?? page.createElement('body')) as unknown as El;
  const h1 = normalisedText(page.querySelector('h1')?.textContent ?? '');

  let container: El = body;
  let source: MarkdownResult['source'] = 'page';
  let articleTitle = '';
  let guess: ReadabilityGuess | undefined;
  let standfirst = '';
  let readabilityPick: El | undefined;
  if (content === 'main') {
    // Readability edits the document it reads, so it gets a copy; the body stays for the fallback.
    const snapshot = page.toString();
    const article = readArticle(snapshot);
    articleTitle = article?.title ?? '';
    guess = article?.guess;
    pruneBoilerplate(body);
    let pageChars = textLength(body);
    // A page that pruning leaves nearly empty is one whose content is links (a post of bookmarked links,
    // a link roll): the body is pruned again by names and text alone, keeping its link lists; menus and
    // sidebars go by their tags and names.
    if (pageChars < READABILITY_MIN_CHARS) {
      const again = parseHTML(snapshot).document.body as unknown as El | null;
      if (again) {
        pruneBoilerplate(again, { byLinks: false });
        if (textLength(again) >= READABILITY_MIN_CHARS) {
          body = again;
          container = body;
          pageChars = textLength(body);
        }
      }
    }
    const paras = paragraphs(body);
    const dense = proseContainer(body, paras);
    if (article) {
      const unpruned = article.root.cloneNode(true) as El;
      pruneBoilerplate(article.root);
      // Pruning that leaves neither the pick nor the page any prose while the pick was long took the content
      // itself: a site named its entries like furniture (a live ticker's "comment" cards). The pick is then
      // pruned by links and text alone.
      if (textLength(article.root) < READABILITY_MIN_CHARS && (dense?.score ?? 0) < READABILITY_MIN_CHARS && textLength(unpruned) >= READABILITY_SURE_CHARS) {
        pruneBoilerplate(unpruned, { byName: false });
        article.root = unpruned;
      }
      readabilityPick = article.root;
      const chars = textLength(article.root);
      // Against the page, the pick is measured by its prose as well as its length: what pruning leaves of a
      // page around a short article can be long lists and lines that hold no prose.
      const share = Math.max(chars / Math.max(1, pageChars), proseShare(article.root, paras));
      if (chars >= READABILITY_MIN_CHARS && (chars >= READABILITY_SURE_CHARS || share >= READABILITY_MIN_SHARE)) {
        container = article.root;
        source = 'article';
      }
    }
    // Readability's pick must hold most of the page's densest prose; when it picked another block (a list
    // of names, a table) or only part of a split article, the densest block is the content.
    // A densest block with less prose than half the pick is no second opinion: the page's own pruning took
    // the article's wrapper (a misleading class name) and left only scraps.
    if (
      dense &&
      source === 'article' &&
      dense.score >= DENSE_MIN_SHARE_OF_PICK * textLength(container) &&
      proseCoverage(dense.el, paras, container) < MIN_PROSE_COVERAGE
    )
      container = dense.el;
    else if (source === 'article') {
      // The standfirst often sits in the article's header, between the title and the body, where
      // Readability does not look: it is metadata (the excerpt when the page declares none), not body.
      standfirst = leadParagraphs(paras, container, [pageTitle, articleTitle])
        .map((el) => normalisedText(el.textContent ?? ''))
        .join(' ');
      restoreSectionHeadings(container, paras);
      container = withSiblingBoxes(container, body, paras);
    }
    // The floor: an override that holds less than half of the (pruned) pick's prose lost the article.
    if (readabilityPick && belowFloor(readabilityPick, container)) {
      container = readabilityPick;
      source = 'readability';
    }
  }
  const title = (pageTitle.trim() || articleTitle.trim() || h1).slice(0, 500);
  prepareForConversion(container);
  const markdown = tidy(converter().turndown(container.innerHTML));
  // A standfirst found in the page ranks after a declared description, before Readability's guess (which is
  // the body's first paragraph).
  const meta = withReadabilityGuess({ ...declared, excerpt: declared.excerpt || standfirst.slice(0, 1_000) }, guess);
  return {
    markdown,
    title,
    source,
    byline: meta.byline,
    published_at: meta.published_at,
    lang: meta.lang,
    site_name: meta.site_name,
    excerpt: meta.excerpt,
    word_count: wordCount(markdown),
  };
}

/** The share of the page's prose (its paragraphs' positive weights) that `pick`'s text holds. */
function proseShare(pick: El, paras: Paragraph[]): number {
  const text = new TextFinder((pick.textContent ?? '').replace(/\s+/g, ' '));
  let total = 0;
  let held = 0;
  for (const p of paras) {
    if (p.weight <= 0) continue;
    total += p.weight;
    if (text.has(p.text)) held += p.weight;
  }
  return total === 0 ? 0 : held / total;
}

/**
 * The share of `block`'s prose (by length) that `article` also holds, sentence by sentence: Readability
 * rewrites paragraphs (line breaks become paragraphs), so whole paragraphs need not match.
 */
export function proseCoverage(block: El, paras: Paragraph[], article: El): number {
  const text = new TextFinder((article.textContent ?? '').replace(/\s+/g, ' '));
  let total = 0;
  let found = 0;
  // A paragraph the page repeats (a carousel's cloned slides, a mobile copy of a block) counts once.
  const seen = new Set<string>();
  for (const p of paras) {
    if (p.weight <= 0 || !block.contains(p.el) || seen.has(p.text)) continue;
    seen.add(p.text);
    // Each sentence counts as much prose as its paragraph holds: a list of names one to a line is long
    // text but little prose, and the pick holding it must not pass for holding the article.
    const proseShare = p.weight / p.text.length;
    for (const sentence of p.text.split(/(?<=[.!?:;])\s+/)) {
      total += sentence.length * proseShare;
      if (text.has(sentence)) found += sentence.length * proseShare;
    }
  }
  return total === 0 ? 1 : found / total;
}

/** Paragraphs the reader sees before the article (in document order) between the page's H1 and the article. */
export const MAX_LEAD_PARAGRAPHS = 3;

/** Share of a paragraph's sentences (by length) the article must hold for the paragraph to count as kept. */
const KEPT_MIN_SHARE = 0.5;

/** A plain block whose text is the page's title, at least this long, is the headline. */
const TITLE_MIN_CHARS = 10;

/** A link line this short between the title and the article is a kicker or a section label, not a list. */
const LABEL_MAX_CHARS = 30;

/**
 * Prose that sits between the article's title and the first paragraph Readability kept, with nothing but
 * short lines (bylines, dates, section labels) around it: the article's lead. The title is the page's H1,
 * a lower heading naming the page (sites that give the H1 to their logo) or a plain block holding the
 * title's words. Empty when no title comes first or a list of links intervenes.
 */
function leadParagraphs(paras: Paragraph[], article: El, titles: string[]): El[] {
  const text = new TextFinder((article.textContent ?? '').replace(/\s+/g, ' '));
  const names = titles.map((t) => normalisedText(t).toLowerCase()).filter(Boolean);
  const isTitle = (p: Paragraph) =>
    p.el.tagName === 'H1' ||
    (/^H[23]$/.test(p.el.tagName) && p.text.length >= 10 && names.some((n) => n.includes(p.text.toLowerCase()))) ||
    // A headline the site set in a plain block (a div styled as a title) is known by its words: the title's.
    (p.text.length >= TITLE_MIN_CHARS && names.includes(p.text.toLowerCase()));
  // Readability may split or trim a paragraph, so the first one it kept is found by its first sentence and
  // most of the rest: a lead that merely opens with the body's first sentence (a teaser of it) is not kept.
  const kept = (p: Paragraph) => {
    const sentences = p.text.split(/(?<=[.!?])\s+/);
    if (!text.has(sentences[0] ?? p.text)) return false;
    const found = sentences.reduce((n, s) => n + (text.has(s) ? s.length : 0), 0);
    return found >= KEPT_MIN_SHARE * p.text.length;
  };
  const first = paras.findIndex((p) => p.weight > 0 && kept(p));
  const lead: El[] = [];
  // Short lines with no weight (a date, a "listen to this article" label) do not count towards the reach.
  let seen = 0;
  // A heading above the lead that is not the title makes it a section's text, not the article's lead.
  let underHeading = false;
  let k = first - 1;
  for (; k >= 0 && seen <= 2 * MAX_LEAD_PARAGRAPHS; k--) {
    const p = paras[k]!;
    if (isTitle(p)) return lead.reverse();
    if ((p.weight < 0 && p.text.length > LABEL_MAX_CHARS) || lead.length > MAX_LEAD_PARAGRAPHS) return [];
    if (p.weight !== 0) seen++;
    if (lead.length > 0 && /^H[1-6]$/.test(p.el.tagName)) underHeading = true;
    if (p.weight > 0 && !text.has(p.text)) lead.push(p.el);
  }
  // Nothing but short lines before the lead (pruning took the header and its title): the lead opens the page.
  return k < 0 && !underHeading ? lead.reverse() : [];
}

function readArticle(html: string): { root: El; title: string; guess: ReadabilityGuess } | null {
  const copy = parseHTML(html).document;
  try {
    const parsed = new Readability(copy as unknown as Document, { keepClasses: true, maxElemsToParse: 50_000, charThreshold: READABILITY_MIN_CHARS }).parse();
    if (!parsed?.content) return null;
    const root = parseHTML(`<!doctype html><html><body><div id="md-root">${parsed.content}</div></body></html>`).document.getElementById(
      'md-root',
    ) as unknown as El;
    return { root, title: parsed.title ?? '', guess: parsed };
  } catch {
    // Readability gives up on very large documents; the cleaned body is used instead.
    return null;
  }
}

function removeNoise(doc: Doc): void {
  // Skip links first: the page script made every href absolute, so they are found by their text.
  for (const a of Array.from(doc.querySelectorAll('a[href*="#"]'))) {
    if (/^\s*(skip|jump|go)\s+to\b/i.test(a.textContent ?? '') || /^\s*skip\b/i.test(a.textContent ?? '')) a.remove();
  }
  for (const el of Array.from(doc.querySelectorAll(ALWAYS_REMOVE.join(',')))) el.remove();
  // The page script drops <noscript> when scripts ran (it is hidden then); one still here was shown to the
  // reader (javascript: false), often holding the page's text or its real images. Its "enable JavaScript"
  // notice is not content.
  for (const el of Array.from(doc.querySelectorAll('noscript'))) {
    if (textLength(el as unknown as El) < 400 && /javascript|\bjs\b|browser/i.test(el.textContent ?? '')) el.remove();
    else el.replaceWith(...Array.from(el.childNodes));
  }
  // Sites that wrap the whole page in one form (ASP.NET) keep it; small forms are widgets.
  for (const form of Array.from(doc.querySelectorAll('form')).reverse()) {
    if (textLength(form as unknown as El) < SMALL_FORM_CHARS) form.remove();
  }
  for (const el of Array.from(doc.querySelectorAll('[id], [class]'))) {
    if (['HTML', 'BODY', 'MAIN', 'ARTICLE'].includes(el.tagName)) continue;
    const names = `${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`;
    // Only small blocks: a class like "cookie-recipe" on a whole article must not take the article with it.
    if (COOKIE_BANNER.test(names) && (el.textContent ?? '').length < 3000) el.remove();
  }
}

/** Marks code-block languages and gives every table a header row, which GFM tables need. */
function prepareForConversion(root: El): void {
  stripCredits(root);
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    const lang = codeLanguage(pre) ?? (code ? codeLanguage(code) : undefined) ?? (pre.parentElement ? codeLanguage(pre.parentElement, true) : undefined);
    if (lang) pre.setAttribute('data-md-lang', lang);
  }
  // Innermost first: a layout table is unwrapped by copying its cells, so the tables inside them must be
  // settled (rowless ones unwrapped, header rows added) before they are copied.
  for (const table of Array.from(root.querySelectorAll('table')).reverse()) {
    // Layout tables (tables in tables) are unwrapped into their cells' content; a table without rows
    // (cells pruned, or never there) is just its text.
    if (!table.querySelector('tr')) {
      const div = table.ownerDocument.createElement('div');
      div.innerHTML = table.innerHTML;
      table.replaceWith(div);
      continue;
    }
    if (table.querySelector('table')) {
      const div = table.ownerDocument.createElement('div');
      for (const cell of Array.from(table.querySelectorAll(':scope > * > tr > td, :scope > tr > td'))) {
        const p = table.ownerDocument.createElement('div');
        p.innerHTML = cell.innerHTML;
        div.appendChild(p);
      }
      table.replaceWith(div);
      continue;
    }
    const firstRow = table.querySelector('tr');
    if (!firstRow || firstRow.parentElement?.tagName === 'THEAD') continue;
    for (const td of Array.from(firstRow.children)) {
      if (td.tagName !== 'TD') continue;
      const th = table.ownerDocument.createElement('th');
      th.innerHTML = td.innerHTML;
      td.replaceWith(th);
    }
  }
}

const LANGUAGE_PATTERNS = [/(?:^|\s)(?:language|lang)-([\w+#.-]+)/i, /(?:^|\s)highlight-(?:source|text)-([\w+#-]+)/i, /brush:\s*([\w+#-]+)/i];

function codeLanguage(el: El, wrapperOnly = false): string | undefined {
  const attr = el.getAttribute('data-language') ?? el.getAttribute('data-lang');
  if (attr && /^[\w+#.-]{1,30}$/.test(attr)) return attr.toLowerCase();
  const cls = el.getAttribute('class') ?? '';
  for (const re of wrapperOnly ? LANGUAGE_PATTERNS.slice(1, 2) : LANGUAGE_PATTERNS) {
    const m = re.exec(cls);
    if (m?.[1]) return m[1].toLowerCase();
  }
  return undefined;
}

let cached: TurndownService | undefined;

function converter(): TurndownService {
  if (cached) return cached;
  const td = new TurndownService({
    headingStyle: 'atx',
    hr: '---',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '_',
    strongDelimiter: '**',
    linkStyle: 'inlined',
  });
  td.use(gfm);
  // Turndown escapes "1. " at the start of a text but not "1) ", which CommonMark also reads as a list item.
  const escape = td.escape.bind(td);
  td.escape = (text: string) => escape(text).replace(/^(\d{1,9})\)(?=\s|$)/, '$1\\)');
  // Added after the plugin so these take precedence over its rules and the defaults.
  td.addRule('fencedCodeWithLanguage', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const el = node as unknown as El;
      const code = (el.textContent ?? '').replace(/\n$/, '');
      const lang = el.getAttribute('data-md-lang') ?? '';
      const longest = Math.max(2, ...Array.from(code.matchAll(/`{3,}/g), (m) => m[0].length));
      const fence = '`'.repeat(longest + 1);
      return `\n\n${fence}${lang}\n${code}\n${fence}\n\n`;
    },
  });
  // "- item" rather than Turndown's "-   item": the same Markdown in fewer tokens.
  td.addRule('compactListItem', {
    filter: 'li',
    replacement: (content, node, options) => {
      const parent = node.parentNode as unknown as El | null;
      let prefix = `${options.bulletListMarker ?? '-'} `;
      if (parent?.nodeName === 'OL') {
        const start = Number(parent.getAttribute('start') ?? '1');
        const index = Array.prototype.indexOf.call(parent.children, node);
        prefix = `${(Number.isFinite(start) ? start : 1) + index}. `;
      }
      const body = content
        .replace(/^\n+/, '')
        .replace(/\n+$/, '\n')
        .replace(/\n/gm, `\n${' '.repeat(prefix.length)}`);
      return `${prefix}${body}${node.nextSibling && !/\n$/.test(body) ? '\n' : ''}`;
    },
  });
  td.addRule('tableCellOnOneLine', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cell = content
        .replace(/\s*\n+\s*/g, ' ')
        .replace(/\|/g, '\\|')
        .trim();
      const index = Array.prototype.indexOf.call(node.parentNode?.childNodes ?? [], node);
      return `${index === 0 ? '| ' : ' '}${cell} |`;
    },
  });
  td.addRule('imagesWithoutInlineData', {
    filter: 'img',
    replacement: (_content, node) => {
      const el = node as unknown as El;
      const src = el.getAttribute('src') ?? '';
      if (!src || src.startsWith('data:')) return '';
      const alt = (el.getAttribute('alt') ?? '').replace(/[[\]\n]/g, ' ').trim();
      return `![${alt}](${src})`;
    },
  });
  td.addRule('linksWithoutHref', {
    filter: (node) => node.nodeName === 'A' && !(node as unknown as El).getAttribute('href'),
    replacement: (content) => content,
  });
  cached = td;
  return td;
}

/**
 * Characters that render as nothing in running text: soft hyphens (hyphenation hints, shown only at a line
 * break) and zero-width spaces and joiners used as break hints. Left in, they split words for a reader
 * that searches or tokenises the text. The zero-width joiner (U+200D) stays: it binds emoji sequences.
 */
const INVISIBLE = /[\u00ad\u200b\u200c\u2060\ufeff]/g;

function tidy(md: string): string {
  return `${relaxEscapes(md)
    .replace(INVISIBLE, '')
    // An underscore inside a word cannot start emphasis (CommonMark), so Turndown's escape there is noise.
    .replace(/(?<=[\p{L}\p{N}])\\_(?=[\p{L}\p{N}])/gu, '_')
    .replace(/[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
