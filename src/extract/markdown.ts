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
import { makeLinksAbsolute } from './absolute-links.js';
import { checkRuleNames, pruneBoilerplate, type PruneOptions, type RuleTrace } from './boilerplate.js';
import { collapseSpace as normalisedText, singleSpaced, textLength, type Doc, type El } from './dom.js';
import { readMetadata, withReadabilityGuess, wordCount, type PageMetadata, type ReadabilityGuess } from './metadata.js';
import { leadParagraphs } from './lead.js';
import { COOKIE_BANNER_WORDS, nameTest } from './lexicon/class-names.js';
import { phraseTest } from './lexicon/compile.js';
import { NOSCRIPT_NOTICE_WORDS, SKIP_LINK_ALONE, SKIP_LINK_TO, SKIP_LINK_VERBS } from './lexicon/notices.js';
import { paragraphs, proseContainer, type Paragraph } from './prose-container.js';
import { elementToMarkdown } from './to-markdown.js';
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

/**
 * A page whose densest pruned block still holds this much prose has content of its own (a one-paragraph
 * post above a long comment thread); only below it is a pick pruned to nothing taken back without its names.
 */
export const OWN_PROSE_MIN_CHARS = 100;

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
  /** With `debug`: what each pruning rule removed (the trace names rules; the kept block is `source`). */
  trace?: RuleTrace[];
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
const COOKIE_BANNER = nameTest(COOKIE_BANNER_WORDS, { digits: false });
/** Skip links, by their text (lexicon/notices.ts): "Skip to content", "Skip navigation". */
const SKIP_LINK = phraseTest('^\\s*', SKIP_LINK_VERBS, `\\s+${SKIP_LINK_TO}\\b`);
const SKIP_LINK_BARE = new RegExp(`^\\s*${SKIP_LINK_ALONE}\\b`, 'i');
/** A <noscript> notice asking to turn scripts on. */
const NOSCRIPT_NOTICE = new RegExp(NOSCRIPT_NOTICE_WORDS.join('|'), 'i');

export interface ExtractOptions {
  /** Pruning rules switched off by name (PRUNE_RULE_NAMES), for measuring what each is worth; an unknown name is an error. */
  off?: readonly string[];
  /** Adds `trace`: every block a pruning rule removed, with the rule's name. */
  debug?: boolean;
  /** The page's URL, for HTML whose links are still relative (not serialised by the page script). */
  baseUrl?: string;
}

export function htmlToMarkdown(input: string, pageTitle: string, content: MarkdownContent = 'main', options: ExtractOptions = {}): MarkdownResult {
  if (options.off?.length) checkRuleNames(options.off);
  const trace: RuleTrace[] | undefined = options.debug ? [] : undefined;
  const rules: PruneOptions = { ...(options.off?.length ? { off: new Set(options.off) } : {}), ...(trace ? { trace } : {}) };
  // linkedom needs a whole document; a serialised page always is one, a fragment gets wrapped.
  const html = /<html[\s>]/i.test(input) ? input : /<body[\s>]/i.test(input) ? `<html>${input}</html>` : `<html><body>${input}</body></html>`;
  const page = parseHTML(html).document;
  if (options.baseUrl) makeLinksAbsolute(page, options.baseUrl);
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
    pruneBoilerplate(body, rules);
    let pageChars = textLength(body);
    // A page that pruning leaves nearly empty is one whose content is links (a post of bookmarked links,
    // a link roll): the body is pruned again by names and text alone, keeping its link lists; menus and
    // sidebars go by their tags and names.
    if (pageChars < READABILITY_MIN_CHARS) {
      const again = parseHTML(snapshot).document.body as unknown as El | null;
      if (again) {
        pruneBoilerplate(again, { ...rules, byLinks: false });
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
      pruneBoilerplate(article.root, { ...rules, tree: 'article' });
      // Pruning that leaves neither the pick nor the page any prose while the pick was long took the content
      // itself: a site named its entries like furniture (a live ticker's "comment" cards). The pick is then
      // pruned by links and text alone. A page left with a paragraph of its own (a short post whose comment
      // thread Readability crowned for its length) is not such a page: its thread rightly went.
      if (textLength(article.root) < READABILITY_MIN_CHARS && (dense?.score ?? 0) < OWN_PROSE_MIN_CHARS && textLength(unpruned) >= READABILITY_SURE_CHARS) {
        pruneBoilerplate(unpruned, { ...rules, byName: false, tree: 'article' });
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
  const markdown = elementToMarkdown(container);
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
    ...(trace ? { trace } : {}),
  };
}

/** The share of the page's prose (its paragraphs' positive weights) that `pick`'s text holds. */
function proseShare(pick: El, paras: Paragraph[]): number {
  const text = new TextFinder(singleSpaced(pick.textContent ?? ''));
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
  const text = new TextFinder(singleSpaced(article.textContent ?? ''));
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
    if (SKIP_LINK.test(a.textContent ?? '') || SKIP_LINK_BARE.test(a.textContent ?? '')) a.remove();
  }
  // The page script drops <noscript> when scripts ran (it is hidden then); one still here was shown to the
  // reader (javascript: false), often holding the page's text or its real images. Its "enable JavaScript"
  // notice is not content. A browser that parsed the page with scripting on kept its markup as text
  // ("&lt;img …&gt;"), which is read as the markup it is, not as words.
  for (const el of Array.from(doc.querySelectorAll('noscript'))) {
    if (textLength(el as unknown as El) < 400 && NOSCRIPT_NOTICE.test(el.textContent ?? '')) el.remove();
    else if (el.children.length === 0 && /<[a-z!/]/i.test(el.textContent ?? '')) {
      const parsed = doc.createElement('div');
      parsed.innerHTML = el.textContent ?? '';
      el.replaceWith(...Array.from(parsed.childNodes));
    } else el.replaceWith(...Array.from(el.childNodes));
  }
  for (const el of Array.from(doc.querySelectorAll(ALWAYS_REMOVE.join(',')))) el.remove();
  // Tracking pixels: an image declared one pixel wide or high shows nothing.
  for (const img of Array.from(doc.querySelectorAll('img'))) {
    if (/^[01]$/.test(img.getAttribute('width') ?? '') || /^[01]$/.test(img.getAttribute('height') ?? '')) img.remove();
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
