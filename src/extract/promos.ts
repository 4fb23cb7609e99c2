// Promotions a site inserts into or right after an article: a "see also" pointer between two paragraphs
// ("MIRA: <linked headline>", "Read more: <linked headline>"), a feedback widget's question, an advert's
// label line, the consent placeholder of an embed, pitches for the site itself (newsletter perks, "follow
// us" lines, "did you like our magazine?", "not a customer yet?", with the bold line titling them), a
// portal's disclaimer for what its readers post, and closing sections about the portal or its other videos.
// Each is told by its words and shape; a paragraph is judged only while short, so prose that mentions a
// subscription or a link stays.
import { closestTag, elementText as text, firstTagInside, sectionOf, tagNames, tagsInside, textLength, type El } from './dom.js';

/**
 * Words of a "see also" label in the languages most common on the web: "MIRA:", "PUEDES VER:", "Lesen Sie
 * auch:", "À lire aussi :", "Czytaj także:", "Read more:". The label is at most a few words and ends with a
 * colon; the rest of the block is one linked headline.
 */
const POINTER_LABEL = new RegExp(
  `^(${[
    '(also |further )?(read|see|watch|listen)( (more|also|next|this|too))?',
    'related( (story|article|post|coverage|reading))?',
    'more( on this)?',
    '(lesen|lies|lest|sehen|schauen|hören) ?(sie|du)? (auch|mehr|weiter|dazu)',
    'siehe auch',
    'auch interessant',
    'mehr (zum thema|dazu)',
    '(puedes |puede )?(ver|mira|mire|lea|lee|leer|escucha)( (también|además|más))?',
    '(te|le) puede interesar',
    'también (lee|lea|puedes leer)',
    '(à )?(lire|voir) (aussi|également)',
    'leggi anche|guarda anche|vedi anche',
    '(leia|veja) (também|mais)',
    'lees (ook|meer)',
    '(czytaj|zobacz) (także|też|również|więcej)',
  ].join('|')})\\s*:$`,
  'i',
);
/** A linked headline has a few words; a link of one or two words ("here", a site's name) is no headline. */
const HEADLINE_MIN_WORDS = 3;
/** Blocks that may hold nothing but a pointer (a site's own wrapper in the article's flow). */
const POINTER_BLOCKS = new Set(['P', 'DIV', 'BLOCKQUOTE', 'LI', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'EM', 'I', 'STRONG', 'B', 'SPAN']);

/** A block that is a "see also" label and one linked headline of another page, and nothing else. */
export function isRelatedPointer(el: El): boolean {
  const links = tagsInside(el, LINKS);
  const [a] = links;
  if (links.length !== 1 || !a) return false;
  const href = a.getAttribute('href') ?? '';
  if (href === '' || href.startsWith('#')) return false;
  const all = text(el);
  const headline = text(a);
  if (headline.split(' ').length < HEADLINE_MIN_WORDS) return false;
  const at = all.indexOf(headline);
  if (at < 0 || all.slice(at + headline.length).replace(/[\s.»›>…]/g, '') !== '') return false;
  return POINTER_LABEL.test(all.slice(0, at).trim());
}

/** Short lines (at most MAX_LINE_CHARS) that are a widget's prompt or an advert's label. */
const PROMO_LINE: RegExp[] = [
  // Feedback and share widgets: "War der Artikel nützlich?", "Was this article helpful?", "Möchten Sie den Artikel teilen?".
  /^(war|ist) (der|dieser|die|diese) (artikel|beitrag|seite|text|information) (nützlich|hilfreich)\b/i,
  /^(was|is|did you find) (this|the) (article|page|post|story|information) (helpful|useful)\b/i,
  /^(¿\s*)?(te|le) (ha )?(resultó|fue|ha sido|pareció) útil\b|^(cet article|cette page) (vous )?a-t-(il|elle) été utile\b/i,
  /^(möchten sie|möchtest du|willst du|wollen sie) (den|diesen) (artikel|beitrag|text) (teilen|empfehlen)\b/i,
  /^(would you like to|want to) share this (article|post|story)\b/i,
  // Review prompts under a product: "Bitte teilen Sie uns Ihre Erfahrungen mit …", "Share your experience".
  /^(bitte )?(teilen sie|teile|teilt) (uns )?(ihre|deine|eure) (erfahrungen?|meinung)\b|^(please )?(share|tell us) your (experience|thoughts|opinion)\b/i,
  // The site's shop offers and the placeholder a blocked shop widget leaves: "Empfehlungen aus dem …-Shop".
  /^(empfehlungen|produkte|angebote|recommendations|products|offers) (aus dem|aus unserem|from the|from our|in our) .{0,40}(shop|store)\W*$/i,
  /^(besuchen sie|visit) (die|the) (webseite|website|seite|site),? (um|to) (dieses|this) (element|content|item)\b/i,
  // The page's own short address offered for sharing: "Permalink https://example.com/p/123".
  /^(permalink|permalien|kurzlink|short ?link|enlace permanente)\s*:?\s*https?:\/\/\S+$/i,
  // An advert's label heading its own line: "ANZEIGE - Heute mal ausgehen?", "Advertisement: …".
  /^[-–—\s]*(anzeige|advertisement|werbung|sponsored|publicidad|publicité)\s*[-–—:|]\s*\S/i,
];
const MAX_LINE_CHARS = 200;

/** Paragraphs (at most MAX_PITCH_CHARS) that pitch the site or disclaim it, told by how they open or a phrase only such notes use. */
const PITCH: RegExp[] = [
  // "Follow The Daily on Twitter and Instagram @daily …": the pitch opens the paragraph.
  // The one followed is "us" or a name ("The Daily", "@daily"), not "these steps shared on Twitter".
  /^[Ff]ollow (us|@?\p{Lu}[\w.]*( @?\p{Lu}[\w.]*){0,2}) on (Twitter|X|Facebook|Instagram|LinkedIn|YouTube|TikTok|Threads|Mastodon)\b/u,
  /^(Folge|Folgen Sie|Folgt) (uns|@?\p{Lu}[\w.]*( @?\p{Lu}[\w.]*)?) (auf|bei) (Twitter|X|Facebook|Instagram|LinkedIn|YouTube|TikTok)\b/u,
  /^(síguenos|sigue a [\w.]+( [\w.]+)?) en (twitter|facebook|instagram|youtube|tiktok)\b|^suivez(-nous| [\w.]+) sur (twitter|facebook|instagram)\b/i,
  // "Did you like our (climbing) magazine?", "Kennt ihr schon unseren …?": the site speaking of itself.
  /^(gefällt|gefiel) (ihnen|dir|euch) (unser|unsere) ([\p{L}-]+ )?[\p{L}-]*(magazin|blog|portal|zeitung|podcast|newsletter|angebot|website|seite)\b/iu,
  /^(do you|did you) (like|enjoy) (our|this) ([\p{L}-]+ )?[\p{L}-]*(magazine|blog|site|website|newsletter|podcast|journalism)\b/iu,
  /^(kennt ihr|kennen sie|kennst du) (schon|bereits) (unser|unsere|unseren)\b/i,
  // Subscription perks and "already a subscriber? log in" lines of a paywall.
  /\b(first-time|new) subscribers (also )?(receive|get)\b|\bif you('re| are) (already )?(a )?(subscriber|member)\b.{0,80}\blog ?in\b/i,
  // A site's history as a pitch: "We have been doing journalism for 106 years", "Hacemos periodismo desde hace 106 años".
  /\bhacemos periodismo desde hace \d+\b|\bwe('ve| have) been (doing|practicing|practising|producing) journalism (for|since)\b|\bwir machen (seit \d+ jahren )?journalismus\b/i,
  // A pitch to become the site's customer: "Solltest Du noch kein Kunde sein, … bei uns beauftragen".
  /^(?=.*\b(noch kein(e)? (kunde|kundin|mitglied)|not (yet )?(already )?an? (customer|member))\b)(?=.*\b(bei uns|wir|with us|we)\b)/iu,
  // A blogger's welcome closing the post: "I'm Amy and I'm so glad you've stopped by!", "My blog is full of …".
  /^(hi,? |hello,? )?(i'm|i am) \p{Lu}\p{L}+\b.{0,40}\b(glad|happy) (that )?you('ve| have)? (stopped by|found|are here|dropped by)\b|^(my|this|our) blog is (full of|all about|where)\b/iu,
  // A portal's disclaimer for what its contributors or readers post.
  /\b(is|are) not responsible for (the )?(opinions|views|statements|content)\b.{0,80}\b(contributors|readers|users|commenters|third parties)\b/i,
  /\b(no se hace|no nos hacemos) responsable(s)? de (las )?(opiniones|comentarios)\b|\b(übernimmt|übernehmen) keine (verantwortung|haftung) für (die )?(meinungen|kommentare|beiträge) (der|von) (nutzer|leser|lesern|nutzern)/i,
  // The placeholder of an embed waiting for consent: "Wir respektieren deine Privatsphäre und stellen ohne dein Einverständnis keine Verbindung zu … her".
  /\b(ohne (dein|ihr|euer) einverständnis|without your consent|sans votre consentement|sin (tu|su) consentimiento)\b.{0,80}\b(verbindung|connection|connect|laden|load|charg|cargar|conexión)/i,
];
const MAX_PITCH_CHARS = 600;

export function isPromoText(s: string): boolean {
  return (s.length <= MAX_LINE_CHARS && PROMO_LINE.some((re) => re.test(s))) || (s.length <= MAX_PITCH_CHARS && PITCH.some((re) => re.test(s)));
}

const BLOCK_CHILD = tagNames('p', 'div', 'ul', 'ol', 'table', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'pre', 'blockquote', 'figure', 'section', 'article');
const CODE_OR_TABLE = tagNames('pre', 'code', 'table');
const LINKS = tagNames('a');

/**
 * A heading over the site's description of itself: "Über das Presseportal www.example.de", "À propos de notre
 * magazine". The site is named by its domain or as "our"/"this" site; a heading about another portal ("Über
 * das neue Bürgerportal") is a section of the article, and "About us" heads the content of an about page.
 */
const ABOUT_SITE = new RegExp(
  `^(über|about|à propos( de)?|acerca de|sobre|o) (` +
    [
      '.{0,60}\\b(www\\.)?[a-z0-9-]+\\.(de|at|ch|com|org|net|info|fr|es|it|pl|nl|eu|co\\.uk)',
      '(unser(e|em|en)?|our|this|dieses|diese|notre|ce|nuestro|nuestra|este|esta) ([\\p{L}-]+ )?(portal|website|webseite|seite|site|blog|magazin|magazine|zeitung|newspaper|plattform|platform|sitio|revista|periódico|journal)',
    ].join('|') +
    ')\\W*$',
  'iu',
);
/** The site's description of itself holds at most this share of the page's text. */
const MAX_ABOUT_SHARE = 0.5;

/**
 * A heading over the site's other audio and video on the subject: "Audios et vidéos sur le sujet", "Videos
 * zum Thema", "Related videos". The whole heading must match.
 */
const RELATED_MEDIA = new RegExp(
  `^(${[
    '(more |related |other )?(audios?|videos?|vidéos|podcasts?)( (and|und|et|y|e) (audios?|videos?|vidéos|podcasts?))? (on|about|sur|zum|sobre|sul) (this|the|le|el|dem)? ?(same )?(topic|subject|sujet|thema|tema)',
    '(more|related|other|weitere|ähnliche|autres|más|otros) (audios?|videos?|vidéos|podcasts?)',
  ].join('|')})\\W*$`,
  'iu',
);

/** True when nothing with text follows `el` among its siblings. */
function closesParent(el: El): boolean {
  for (let sib = el.nextElementSibling as El | null; sib; sib = sib.nextElementSibling as El | null) if (textLength(sib) > 0) return false;
  return true;
}

/**
 * Removes a closing section about the site (a portal's boilerplate about itself under the article), when
 * the section closes the block it is in, and sections of the site's other audio and video. Run after the
 * other pruning, so that share bars and link lists after a section are gone.
 */
export function pruneSiteSections(root: El): void {
  const total = Math.max(1, textLength(root));
  for (const h of Array.from(root.querySelectorAll('h1, h2, h3, h4, h5, h6')) as El[]) {
    if (!h.isConnected) continue;
    const about = ABOUT_SITE.test(text(h));
    if (!about && !RELATED_MEDIA.test(text(h))) continue;
    const section = sectionOf(h, root);
    const chars = section.reduce((n, el) => n + textLength(el), 0);
    if (chars <= MAX_ABOUT_SHARE * total && (!about || closesParent(section.at(-1)!))) for (const el of section) el.remove();
  }
}

/** Removes "see also" pointers, widget prompts, advert labels and the site's pitches from `root`. */
export function prunePromos(root: El): void {
  for (const el of Array.from(root.querySelectorAll('*')) as El[]) {
    if (!el.isConnected || el === root || !POINTER_BLOCKS.has(el.tagName) || closestTag(el, CODE_OR_TABLE)) continue;
    if (isRelatedPointer(el)) {
      el.remove();
      continue;
    }
    // A pitch is judged on its innermost block: a wrapper holding it and the article is not the pitch.
    if (firstTagInside(el, BLOCK_CHILD) || textLength(el) === 0) continue;
    if (!isPromoText(text(el))) continue;
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
