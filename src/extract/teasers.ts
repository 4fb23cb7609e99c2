// Teaser cards of other articles left inside the article container: a heading that is wholly one link to
// another page, with a picture or a short blurb under it, repeated ("More from the site" without its own
// heading). One such heading can be an article's linked section title; two or more in a row with only short
// blurbs between them are a list of other stories.
import { closestTag, elementText as text, firstTagInside, tagNames, tagsInside, type El } from './dom.js';

/** Longest blurb (text under a card's heading) that still reads as a teaser, not a section of the article. */
const MAX_BLURB_CHARS = 400;
/** Cards in a row that make a list of teasers. */
const MIN_CARDS = 2;
/** A run of teasers never takes more than this share of the article's text. */
const MAX_SHARE = 0.5;
const HEADINGS = tagNames('h1', 'h2', 'h3', 'h4', 'h5', 'h6');
const LINKS = tagNames('a');
const TABLE = tagNames('table');

function isHeading(el: El): boolean {
  return /^H[1-6]$/.test(el.tagName);
}

/** A heading whose whole text is one link leading off the page (not an in-page anchor). */
function isLinkedHeading(el: El): boolean {
  if (!isHeading(el)) return false;
  const links = tagsInside(el, LINKS);
  const [a] = links;
  if (links.length !== 1 || !a) return false;
  const href = a.getAttribute('href') ?? '';
  return (
    href !== '' &&
    !href.startsWith('#') &&
    !href.startsWith('javascript:') &&
    text(a) !== '' &&
    text(a) === text(el) &&
    !namesPage(el) &&
    !anchorsItself(a, href)
  );
}

/**
 * A heading linked to its own anchor (a permalink to the section, a table of contents' back link) titles
 * the section it opens: the link's target is the heading or a block around it. The page script made every
 * href absolute, so the anchor is known by the fragment, not by a leading '#'.
 */
function anchorsItself(a: El, href: string): boolean {
  const at = href.indexOf('#');
  const id = at >= 0 ? href.slice(at + 1) : '';
  if (id === '') return false;
  for (let el: El | null = a; el; el = el.parentElement as El | null) if (el.getAttribute('id') === id) return true;
  return false;
}

/** The page's own title (its <title> names it), linked to itself as blogs do, is not a teaser of another page. */
function namesPage(h: El): boolean {
  const title = h.ownerDocument.querySelector('head > title') as El | null;
  return title !== null && text(title).toLowerCase().includes(text(h).toLowerCase());
}

/** A box holding one linked heading and little else: a wrapped teaser card. */
function isCard(el: El): boolean {
  const hs = tagsInside(el, HEADINGS);
  const [h] = hs;
  return hs.length === 1 && h !== undefined && isLinkedHeading(h) && text(el).length - text(h).length <= MAX_BLURB_CHARS;
}

/** Tags of the boxes a card without a heading is built of. */
const CARD_BOXES = new Set(['DIV', 'SECTION', 'ARTICLE']);
/** Words of a linked title: a link of one or two words ("here", a site's name) titles nothing. */
const TITLE_MIN_WORDS = 3;

function leadsOff(a: El): boolean {
  const href = a.getAttribute('href') ?? '';
  return href !== '' && !href.startsWith('#') && !href.startsWith('javascript:');
}

/**
 * A box without a heading whose links all lead to one other page, one of them a title standing alone on
 * its line, with a short blurb beside it: a teaser card built of a linked title, a picture and a "read
 * more" link. Only boxes: paragraphs and list items are prose and lists, a table's rows are its data.
 */
function isLinkCard(el: El): boolean {
  if (!CARD_BOXES.has(el.tagName) || closestTag(el, TABLE) || firstTagInside(el, HEADINGS)) return false;
  const links = tagsInside(el, LINKS);
  if (links.length === 0 || !links.every(leadsOff) || new Set(links.map((a) => a.getAttribute('href'))).size !== 1) return false;
  const titled = links.some((a) => text(a).split(' ').length >= TITLE_MIN_WORDS && a.parentElement !== el && text(a.parentElement as El) === text(a));
  const linkChars = links.reduce((n, a) => n + text(a).length, 0);
  return titled && text(el).length - linkChars <= MAX_BLURB_CHARS;
}

/**
 * A wrapped card whose links all lead to the one page its heading names, at least twice (the title and a
 * picture or a "more" link): a teaser even when alone, where a linked section title of the article has no
 * second link beside it.
 */
function linksTwiceToOnePage(card: El): boolean {
  if (isHeading(card)) return false;
  const links = tagsInside(card, LINKS);
  return links.length >= 2 && links.every(leadsOff) && new Set(links.map((a) => a.getAttribute('href'))).size === 1;
}

/** Removes runs of teaser cards among the children of each element, and lone cards that link twice to their page. */
export function pruneTeaserCards(root: El, total: number): void {
  for (const parent of [root, ...(Array.from(root.querySelectorAll('*')) as El[])]) {
    if (!parent.isConnected) continue;
    const kids = Array.from(parent.children) as El[];
    let run: El[] = [];
    let cards = 0;
    let blurb = 0;
    const flush = (): void => {
      const chars = run.reduce((n, el) => n + text(el).length, 0);
      if (cards >= MIN_CARDS && chars <= MAX_SHARE * total) {
        for (const el of run) el.remove();
      } else if (cards === 1 && run[0] !== undefined && linksTwiceToOnePage(run[0]) && text(run[0]).length <= MAX_SHARE * total) {
        // A lone wrapped card goes alone: what follows it is the article resuming, not its blurb.
        run[0].remove();
      }
      run = [];
      cards = 0;
      blurb = 0;
    };
    for (const kid of kids) {
      const last = run.at(-1);
      if (isLinkedHeading(kid) || (!isHeading(kid) && (isCard(kid) || isLinkCard(kid)))) {
        // Two linked headings in a row (a kicker and a title) are one card.
        if (!(isLinkedHeading(kid) && last !== undefined && isLinkedHeading(last))) cards++;
        run.push(kid);
        blurb = 0;
      } else if (cards > 0 && !isHeading(kid) && !firstTagInside(kid, HEADINGS) && blurb + text(kid).length <= MAX_BLURB_CHARS) {
        // The picture and blurb under a bare linked heading.
        run.push(kid);
        blurb += text(kid).length;
      } else {
        flush();
      }
    }
    flush();
  }
}
