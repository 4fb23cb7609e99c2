// Promotions a site inserts into or right after an article: a "see also" pointer between two paragraphs
// ("MIRA: <linked headline>", "Read more: <linked headline>"), a feedback widget's question, an advert's
// label line, the consent placeholder of an embed, pitches for the site itself (newsletter perks, "follow
// us" lines, "did you like our magazine?", "not a customer yet?", with the bold line titling them), a
// portal's disclaimer for what its readers post, and closing sections about the portal or its other videos.
// Each is told by its words and shape; a paragraph is judged only while short, so prose that mentions a
// subscription or a link stays.
import { closestTag, elementText as text, firstTagInside, hasText, sectionOf, tagNames, tagsInside, textLength, type El } from './dom.js';
import { anyOf, phraseTest } from './lexicon/compile.js';
import {
  ABOUT_DOMAINS,
  ABOUT_OWN,
  ABOUT_WORDS,
  ADVERT_LINE_LABELS,
  BLOCKED_WIDGET,
  BLOGGER_WELCOME,
  CONSENT_CONNECT,
  FOLLOW_NETWORKS,
  FOLLOW_PITCH,
  JOURNALISM_SINCE,
  KNOW_OUR_OPENINGS,
  NOT_RESPONSIBLE,
  NOT_RESPONSIBLE_EN,
  NOT_YET_CUSTOMER,
  PAYWALL_PERKS,
  PERMALINK_LINK_LABELS,
  PITCH_OPENINGS,
  POINTER_LABELS,
  PROMPT_OPENINGS,
  RELATED_MEDIA_HEADINGS,
  SHOP_FROM,
  SHOP_OFFERS,
  SHOP_WORDS,
  SITE_NOUNS,
  WITH_US,
  WITHOUT_CONSENT,
} from './lexicon/lines.js';
import { rememberedByText } from './text-verdicts.js';

/**
 * Words of a "see also" label in the languages most common on the web: "MIRA:", "PUEDES VER:", "Lesen Sie
 * auch:", "À lire aussi :", "Czytaj także:", "Read more:". The label is at most a few words and ends with a
 * colon; the rest of the block is one linked headline.
 */
const POINTER_LABEL = phraseTest('^', POINTER_LABELS, '\\s*:$');
/** A linked headline has a few words; a link of one or two words ("here", a site's name) is no headline. */
const HEADLINE_MIN_WORDS = 3;
/** Blocks that may hold nothing but a pointer (a site's own wrapper in the article's flow). */
const POINTER_BLOCKS = new Set(['P', 'DIV', 'BLOCKQUOTE', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'EM', 'I', 'STRONG', 'B', 'SPAN']);

/** A character other than space, dots or arrows: after the headline, the block says more than the pointer. */
const NOT_TRAILER = /[^\s.»›>…]/;

/**
 * A block that is a "see also" label and one linked headline of another page, and nothing else. `elText` gives
 * the block's text (the caller's, when it reads it too).
 */
export function isRelatedPointer(el: El, elText: () => string = () => text(el)): boolean {
  const links = tagsInside(el, LINKS);
  const [a] = links;
  if (links.length !== 1 || !a) return false;
  const href = a.getAttribute('href') ?? '';
  if (href === '' || href.startsWith('#')) return false;
  const all = elText();
  const headline = text(a);
  if (headline.split(' ').length < HEADLINE_MIN_WORDS) return false;
  const at = all.indexOf(headline);
  if (at < 0 || NOT_TRAILER.test(all.slice(at + headline.length))) return false;
  return POINTER_LABEL.test(all.slice(0, at).trim());
}

/** Short lines (at most MAX_LINE_CHARS) that are a widget's prompt or an advert's label (the words: lexicon/lines.ts). */
const PROMO_LINE: RegExp[] = [
  // Feedback and share widgets: "War der Artikel nützlich?", "Was this article helpful?", "Möchten Sie den Artikel teilen?";
  // review prompts under a product: "Bitte teilen Sie uns Ihre Erfahrungen mit …", "Share your experience".
  ...PROMPT_OPENINGS.map((table) => phraseTest('^', table, '\\b')),
  // The site's shop offers and the placeholder a blocked shop widget leaves: "Empfehlungen aus dem …-Shop".
  new RegExp(`^${anyOf(SHOP_OFFERS)} ${anyOf(SHOP_FROM)} .{0,40}${anyOf(SHOP_WORDS)}\\W*$`, 'i'),
  new RegExp(
    `^${anyOf(BLOCKED_WIDGET.visit)} ${anyOf(BLOCKED_WIDGET.the)} ${anyOf(BLOCKED_WIDGET.site)},? ${anyOf(BLOCKED_WIDGET.to)} ${anyOf(BLOCKED_WIDGET.this)} ${anyOf(BLOCKED_WIDGET.item)}\\b`,
    'i',
  ),
  // The page's own short address offered for sharing: "Permalink https://example.com/p/123".
  phraseTest('^', PERMALINK_LINK_LABELS, '\\s*:?\\s*https?:\\/\\/\\S+$'),
  // An advert's label heading its own line: "ANZEIGE - Heute mal ausgehen?", "Advertisement: …".
  phraseTest('^[-–—\\s]*', ADVERT_LINE_LABELS, '\\s*[-–—:|]\\s*\\S'),
];
const MAX_LINE_CHARS = 200;

/** Someone followed: "us" or a name ("The Daily", "@daily"), not "these steps shared on Twitter". */
const FOLLOWED_NAME = '@?\\p{Lu}[\\w.]*';

/** Paragraphs (at most MAX_PITCH_CHARS) that pitch the site or disclaim it, told by how they open or a phrase only such notes use. */
const PITCH: RegExp[] = [
  // "Follow The Daily on Twitter and Instagram @daily …": the pitch opens the paragraph, the name capitalised.
  new RegExp(
    `^${anyOf(FOLLOW_PITCH.en.follow)} (${FOLLOW_PITCH.en.us}|${FOLLOWED_NAME}( ${FOLLOWED_NAME}){0,2}) ${FOLLOW_PITCH.en.on} ${anyOf(FOLLOW_NETWORKS.en)}\\b`,
    'u',
  ),
  new RegExp(
    `^${anyOf(FOLLOW_PITCH.de.follow)} (${FOLLOW_PITCH.de.us}|${FOLLOWED_NAME}( ${FOLLOWED_NAME})?) ${FOLLOW_PITCH.de.on} ${anyOf(FOLLOW_NETWORKS.de)}\\b`,
    'u',
  ),
  new RegExp(
    `^${anyOf(FOLLOW_PITCH.es.follow)} ${FOLLOW_PITCH.es.on} ${anyOf(FOLLOW_NETWORKS.es)}\\b|^${anyOf(FOLLOW_PITCH.fr.follow)} ${FOLLOW_PITCH.fr.on} ${anyOf(FOLLOW_NETWORKS.fr)}\\b`,
    'i',
  ),
  // "Did you like our (climbing) magazine?", "Kennt ihr schon unseren …?": the site speaking of itself.
  ...PITCH_OPENINGS.map((table) => phraseTest('^', table, '\\b', 'iu')),
  phraseTest('^', KNOW_OUR_OPENINGS, '\\b'),
  // Subscription perks and "already a subscriber? log in" lines of a paywall.
  new RegExp(PAYWALL_PERKS.join('|'), 'i'),
  // A site's history as a pitch: "We have been doing journalism for 106 years", "Hacemos periodismo desde hace 106 años".
  phraseTest('\\b', JOURNALISM_SINCE, '\\b'),
  // A pitch to become the site's customer: "Solltest Du noch kein Kunde sein, … bei uns beauftragen".
  new RegExp(`^(?=.*\\b${anyOf(NOT_YET_CUSTOMER)}\\b)(?=.*\\b${anyOf(WITH_US)}\\b)`, 'iu'),
  // A blogger's welcome closing the post: "I'm Amy and I'm so glad you've stopped by!", "My blog is full of …".
  phraseTest('^', BLOGGER_WELCOME, '\\b', 'iu'),
  // A portal's disclaimer for what its contributors or readers post.
  new RegExp(`\\b${NOT_RESPONSIBLE_EN.for}\\b.{0,80}\\b${NOT_RESPONSIBLE_EN.whose}\\b`, 'i'),
  phraseTest('\\b', NOT_RESPONSIBLE, ''),
  // The placeholder of an embed waiting for consent: "Wir respektieren deine Privatsphäre und stellen ohne dein Einverständnis keine Verbindung zu … her".
  new RegExp(`\\b${anyOf(WITHOUT_CONSENT)}\\b.{0,80}\\b${anyOf(CONSENT_CONNECT)}`, 'i'),
];
const MAX_PITCH_CHARS = 600;

export const isPromoText = rememberedByText(
  (s) => (s.length <= MAX_LINE_CHARS && PROMO_LINE.some((re) => re.test(s))) || (s.length <= MAX_PITCH_CHARS && PITCH.some((re) => re.test(s))),
  MAX_PITCH_CHARS,
);

const BLOCK_CHILD = tagNames('p', 'div', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'figure', 'section', 'article');
const CODE_OR_TABLE = tagNames('pre', 'code', 'table');
const LINKS = tagNames('a');

/**
 * A heading over the site's description of itself: "Über das Presseportal www.example.de", "À propos de notre
 * magazine". The site is named by its domain or as "our"/"this" site; a heading about another portal ("Über
 * das neue Bürgerportal") is a section of the article, and "About us" heads the content of an about page.
 */
const ABOUT_SITE = new RegExp(
  `^${anyOf(ABOUT_WORDS)} (.{0,60}\\b(www\\.)?[a-z0-9-]+\\.${anyOf(ABOUT_DOMAINS)}|${anyOf(ABOUT_OWN)} ([\\p{L}-]+ )?${anyOf(SITE_NOUNS)})\\W*$`,
  'iu',
);
/** The site's description of itself holds at most this share of the page's text. */
const MAX_ABOUT_SHARE = 0.5;

/**
 * A heading over the site's other audio and video on the subject: "Audios et vidéos sur le sujet", "Videos
 * zum Thema", "Related videos". The whole heading must match.
 */
const RELATED_MEDIA = phraseTest('^', RELATED_MEDIA_HEADINGS, '\\W*$', 'iu');

/** True when nothing with text follows `el` among its siblings. */
function closesParent(el: El): boolean {
  for (let sib = el.nextElementSibling as El | null; sib; sib = sib.nextElementSibling as El | null) if (hasText(sib)) return false;
  return true;
}

/**
 * Removes a closing section about the site (a portal's boilerplate about itself under the article), when
 * the section closes the block it is in, and sections of the site's other audio and video. Run after the
 * other pruning, so that share bars and link lists after a section are gone.
 */
export function pruneSiteSections(root: El): void {
  // The tree's length before any removal, measured when a heading first asks (on most pages none does, and
  // nothing is removed before the first that does): a walk through the whole article otherwise.
  let total: number | undefined;
  for (const h of Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6')) as El[]) {
    if (!h.isConnected) continue;
    const about = ABOUT_SITE.test(text(h));
    if (!about && !RELATED_MEDIA.test(text(h))) continue;
    total ??= Math.max(1, textLength(root));
    const section = sectionOf(h, root);
    const chars = section.reduce((n, el) => n + textLength(el), 0);
    if (chars <= MAX_ABOUT_SHARE * total && (!about || closesParent(section.at(-1)!))) for (const el of section) el.remove();
  }
}

/** Removes "see also" pointers, widget prompts, advert labels and the site's pitches from `root`. */
export function prunePromos(root: El): void {
  for (const el of Array.from(root.querySelectorAll('*')) as El[]) {
    if (!el.isConnected || el === root || !POINTER_BLOCKS.has(el.tagName) || closestTag(el, CODE_OR_TABLE)) continue;
    // Read once for both tests (nothing changes the block in between).
    let own: string | undefined;
    const elText = () => (own ??= text(el));
    if (isRelatedPointer(el, elText)) {
      el.remove();
      continue;
    }
    // A pitch is judged on its innermost block: a wrapper holding it and the article is not the pitch.
    if (firstTagInside(el, BLOCK_CHILD) || !hasText(el)) continue;
    if (!isPromoText(elText())) continue;
    const before = el.previousElementSibling as El | null;
    if (before && isBoldTitle(before)) before.remove();
    el.remove();
  }
}

/** A pitch's own title is a short line before it that is wholly bold: "Gut versorgt mit …", "Support us". */
const MAX_TITLE_CHARS = 80;

function isBoldTitle(el: El): boolean {
  const s = text(el);
  if (s === '' || s.length > MAX_TITLE_CHARS || firstTagInside(el, BLOCK_CHILD) || firstTagInside(el, LINKS)) return false;
  const bold = (Array.from(el.querySelectorAll('b, strong')) as El[]).reduce((n, b) => n + text(b).length, 0);
  return ['B', 'STRONG'].includes(el.tagName) || bold >= s.length;
}
