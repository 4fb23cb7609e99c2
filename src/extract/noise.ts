// What is removed from the whole page before anything is judged, for `main` and `full` alike: the page's
// machinery (scripts, styles, form controls, dialogs), skip links, "enable JavaScript" notices, tracking
// pixels, small forms and cookie banners. None of it is ever the text; each is a rule of its own, in the
// order they run, so the trace says which took a block and `off` can switch one off (steps.ts runs them first).
// The page is walked once for all of them (removeNoise): each rule says which elements it judges, and judges
// them in turn.
import { eachElementInside, textLength, type Doc, type El } from './dom.js';
import { COOKIE_BANNER_WORDS, nameTest } from './lexicon/class-names.js';
import { phraseTest } from './lexicon/compile.js';
import { NOSCRIPT_NOTICE_WORDS, SKIP_LINK_ALONE, SKIP_LINK_TO, SKIP_LINK_VERBS } from './lexicon/notices.js';
import { traceRemovals, type RuleTrace } from './trace.js';

/** The page's machinery, by tag. */
const MACHINERY_TAGS = new Set([
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
]);
/** …and by role: dialogs and search boxes (the attribute's value exactly, as a selector matches it). */
const MACHINERY_ATTRIBUTES: readonly (readonly [string, string])[] = [
  ['role', 'dialog'],
  ['role', 'alertdialog'],
  ['aria-modal', 'true'],
  ['role', 'search'],
];
/** A form with less text than this is a search box, a login or a newsletter sign-up; larger ones wrap content. */
const SMALL_FORM_CHARS = 500;
/** A block named as a cookie banner is one only up to this size (a "cookie-recipe" article is not). */
const MAX_COOKIE_BANNER_CHARS = 3000;
const COOKIE_BANNER = nameTest(COOKIE_BANNER_WORDS, { digits: false });
/** Skip links, by their text (lexicon/notices.ts): "Skip to content", "Skip navigation". */
const SKIP_LINK = phraseTest('^\\s*', SKIP_LINK_VERBS, `\\s+${SKIP_LINK_TO}\\b`);
const SKIP_LINK_BARE = new RegExp(`^\\s*${SKIP_LINK_ALONE}\\b`, 'i');
/** A <noscript> notice asking to turn scripts on. */
const NOSCRIPT_NOTICE = new RegExp(NOSCRIPT_NOTICE_WORDS.join('|'), 'i');
/** A <noscript> notice is short; a longer one holds the page's text. */
const MAX_NOSCRIPT_NOTICE_CHARS = 400;

export interface NoiseRule {
  name: string;
  /** What it removes, and why that is not the text. */
  why: string;
  /** Whether the rule judges the element (what a selector would match): asked of every element in the one walk of the page. */
  selects: (el: El) => boolean;
  /**
   * Judges (and removes) the elements it selected that are still in the page, in document order. True when
   * it put new elements into the page (a notice's markup parsed): the later rules' selections are then read again.
   */
  run: (els: El[], doc: Doc) => boolean | void;
}

/** A tag name as a selector matches it in an HTML document. */
function tag(el: El): string {
  return el.localName.toLowerCase();
}

/** The noise rules in the order they run: skip links are found by their text before <noscript> blocks are opened. */
export const NOISE_RULES: readonly NoiseRule[] = [
  {
    name: 'skip-links',
    why: '"Skip to content" links: keyboard shortcuts of the page, found by their text',
    // The page script made every href absolute, so skip links are found by their text.
    selects: (el) => tag(el) === 'a' && (el.getAttribute('href') ?? '').includes('#'),
    run: removeSkipLinks,
  },
  {
    name: 'noscript',
    why: '<noscript> notices asking to turn scripts on; other <noscript> blocks were shown to the reader and are opened',
    selects: (el) => tag(el) === 'noscript',
    run: openNoscript,
  },
  {
    name: 'machinery',
    why: 'scripts, styles, embeds, form controls, dialogs, search boxes and ruby readings',
    selects: (el) => MACHINERY_TAGS.has(tag(el)) || MACHINERY_ATTRIBUTES.some(([name, value]) => el.getAttribute(name) === value),
    run: (els) => els.forEach((el) => el.remove()),
  },
  { name: 'tracking-pixels', why: 'images declared one pixel wide or high: they show nothing', selects: (el) => tag(el) === 'img', run: removeTrackingPixels },
  {
    name: 'small-forms',
    why: 'forms with little text: search boxes, logins, sign-ups (a page wrapped in one form keeps it)',
    selects: (el) => tag(el) === 'form',
    run: removeSmallForms,
  },
  {
    name: 'cookie-banners',
    why: 'small blocks named as cookie or consent banners',
    selects: (el) => el.hasAttribute('id') || el.hasAttribute('class'),
    run: removeCookieBanners,
  },
];

/**
 * Runs the noise rules on the page in order (those not `off`), in one walk of the page: each rule judges
 * the elements it selected there that are still in the page when it runs, as its own query of the page
 * would find them then (the rules before it only removed elements or moved them in place, unless one
 * parsed new ones: then the page is walked again for the rules after it). `trace`: see traceRemovals.
 */
export function removeNoise(doc: Doc, off: ReadonlySet<string>, trace?: RuleTrace[]): void {
  const rules = NOISE_RULES.filter((r) => !off.has(r.name));
  const root = doc.documentElement as unknown as El;
  let selected = select(doc, rules);
  rules.forEach((rule, i) => {
    const els = (selected[i] ?? []).filter((el) => el.isConnected);
    let added = false;
    traceRemovals(rule.name, 'page', root, trace, () => {
      added = rule.run(els, doc) === true;
    });
    if (added) selected = [...selected.slice(0, i + 1), ...select(doc, rules.slice(i + 1))];
  });
}

/**
 * The elements each rule selects in document order, as the document's query finds them: from every element
 * at its top (the root, and what a page puts after </html>), each with what is inside it.
 */
function select(doc: Doc, rules: readonly NoiseRule[]): El[][] {
  const selected: El[][] = rules.map(() => []);
  const visit = (el: El) => {
    for (let i = 0; i < rules.length; i++) if (rules[i]!.selects(el)) selected[i]!.push(el);
  };
  for (let top = doc.firstElementChild as El | null; top; top = top.nextElementSibling as El | null) {
    visit(top);
    eachElementInside(top, visit);
  }
  return selected;
}

function removeSkipLinks(links: El[]): void {
  for (const a of links) {
    if (SKIP_LINK.test(a.textContent ?? '') || SKIP_LINK_BARE.test(a.textContent ?? '')) a.remove();
  }
}

/**
 * The page script drops <noscript> when scripts ran (it is hidden then); one still here was shown to the
 * reader (javascript: false), often holding the page's text or its real images. Its "enable JavaScript"
 * notice is not content. A browser that parsed the page with scripting on kept its markup as text
 * ("&lt;img …&gt;"), which is read as the markup it is, not as words.
 */
function openNoscript(blocks: El[], doc: Doc): boolean {
  let parsed = false;
  for (const el of blocks) {
    if (textLength(el) < MAX_NOSCRIPT_NOTICE_CHARS && NOSCRIPT_NOTICE.test(el.textContent ?? '')) el.remove();
    else if (el.children.length === 0 && /<[a-z!/]/i.test(el.textContent ?? '')) {
      const markup = doc.createElement('div');
      markup.innerHTML = el.textContent ?? '';
      el.replaceWith(...Array.from(markup.childNodes));
      parsed = true;
    } else el.replaceWith(...Array.from(el.childNodes));
  }
  return parsed;
}

function removeTrackingPixels(images: El[]): void {
  for (const img of images) {
    if (/^[01]$/.test(img.getAttribute('width') ?? '') || /^[01]$/.test(img.getAttribute('height') ?? '')) img.remove();
  }
}

function removeSmallForms(forms: El[]): void {
  // Innermost first, so a form inside a form is judged before the one around it.
  for (const form of [...forms].reverse()) {
    if (textLength(form) < SMALL_FORM_CHARS) form.remove();
  }
}

function removeCookieBanners(named: El[]): void {
  for (const el of named) {
    if (['HTML', 'BODY', 'MAIN', 'ARTICLE'].includes(el.tagName)) continue;
    const names = `${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`;
    // Only small blocks: a class like "cookie-recipe" on a whole article must not take the article with it.
    if (COOKIE_BANNER.test(names) && (el.textContent ?? '').length < MAX_COOKIE_BANNER_CHARS) el.remove();
  }
}
