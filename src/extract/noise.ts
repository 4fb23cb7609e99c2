// What is removed from the whole page before anything is judged, for `main` and `full` alike: the page's
// machinery (scripts, styles, form controls, dialogs), skip links, "enable JavaScript" notices, tracking
// pixels, small forms and cookie banners. None of it is ever the text; each is a rule of its own, in the
// order they run, so the trace says which took a block and `off` can switch one off (steps.ts runs them).
import { textLength, type Doc, type El } from './dom.js';
import { COOKIE_BANNER_WORDS, nameTest } from './lexicon/class-names.js';
import { phraseTest } from './lexicon/compile.js';
import { NOSCRIPT_NOTICE_WORDS, SKIP_LINK_ALONE, SKIP_LINK_TO, SKIP_LINK_VERBS } from './lexicon/notices.js';

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
  run: (doc: Doc) => void;
}

/** The noise rules in the order they run: skip links are found by their text before <noscript> blocks are opened. */
export const NOISE_RULES: readonly NoiseRule[] = [
  { name: 'skip-links', why: '"Skip to content" links: keyboard shortcuts of the page, found by their text', run: removeSkipLinks },
  {
    name: 'noscript',
    why: '<noscript> notices asking to turn scripts on; other <noscript> blocks were shown to the reader and are opened',
    run: openNoscript,
  },
  { name: 'machinery', why: 'scripts, styles, embeds, form controls, dialogs, search boxes and ruby readings', run: removeMachinery },
  { name: 'tracking-pixels', why: 'images declared one pixel wide or high: they show nothing', run: removeTrackingPixels },
  { name: 'small-forms', why: 'forms with little text: search boxes, logins, sign-ups (a page wrapped in one form keeps it)', run: removeSmallForms },
  { name: 'cookie-banners', why: 'small blocks named as cookie or consent banners', run: removeCookieBanners },
];

function removeSkipLinks(doc: Doc): void {
  // The page script made every href absolute, so skip links are found by their text.
  for (const a of Array.from(doc.querySelectorAll('a[href*="#"]'))) {
    if (SKIP_LINK.test(a.textContent ?? '') || SKIP_LINK_BARE.test(a.textContent ?? '')) a.remove();
  }
}

/**
 * The page script drops <noscript> when scripts ran (it is hidden then); one still here was shown to the
 * reader (javascript: false), often holding the page's text or its real images. Its "enable JavaScript"
 * notice is not content. A browser that parsed the page with scripting on kept its markup as text
 * ("&lt;img …&gt;"), which is read as the markup it is, not as words.
 */
function openNoscript(doc: Doc): void {
  for (const el of Array.from(doc.querySelectorAll('noscript'))) {
    if (textLength(el as unknown as El) < MAX_NOSCRIPT_NOTICE_CHARS && NOSCRIPT_NOTICE.test(el.textContent ?? '')) el.remove();
    else if (el.children.length === 0 && /<[a-z!/]/i.test(el.textContent ?? '')) {
      const parsed = doc.createElement('div');
      parsed.innerHTML = el.textContent ?? '';
      el.replaceWith(...Array.from(parsed.childNodes));
    } else el.replaceWith(...Array.from(el.childNodes));
  }
}

function removeMachinery(doc: Doc): void {
  for (const el of Array.from(doc.querySelectorAll(ALWAYS_REMOVE.join(',')))) el.remove();
}

function removeTrackingPixels(doc: Doc): void {
  for (const img of Array.from(doc.querySelectorAll('img'))) {
    if (/^[01]$/.test(img.getAttribute('width') ?? '') || /^[01]$/.test(img.getAttribute('height') ?? '')) img.remove();
  }
}

function removeSmallForms(doc: Doc): void {
  // Innermost first, so a form inside a form is judged before the one around it.
  for (const form of Array.from(doc.querySelectorAll('form')).reverse()) {
    if (textLength(form as unknown as El) < SMALL_FORM_CHARS) form.remove();
  }
}

function removeCookieBanners(doc: Doc): void {
  for (const el of Array.from(doc.querySelectorAll('[id], [class]'))) {
    if (['HTML', 'BODY', 'MAIN', 'ARTICLE'].includes(el.tagName)) continue;
    const names = `${el.getAttribute('id') ?? ''} ${el.getAttribute('class') ?? ''}`;
    // Only small blocks: a class like "cookie-recipe" on a whole article must not take the article with it.
    if (COOKIE_BANNER.test(names) && (el.textContent ?? '').length < MAX_COOKIE_BANNER_CHARS) el.remove();
  }
}
