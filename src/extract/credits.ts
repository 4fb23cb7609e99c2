// Photo credits and image furniture. A figure's caption is content (it says what the picture shows), but
// the credit pinned to it ("Foto: dpa", "(REUTERS/Jane Doe)", "Bild via …", "/Getty Images") names who
// owns the picture, and "click to enlarge" is an instruction for a mouse: neither is part of the text. Only
// the credit goes; the descriptive part of a caption stays. Captions are recognised by their tag or class
// and by sitting next to a picture, so a "Source: …" line in running prose is never touched.
import { closestTag, collapseSpace, firstTagInside, tagNames, trimmedLengthAtMost, type El } from './dom.js';
import { anyOf, groupOf } from './lexicon/compile.js';
import {
  CAPTION_CLASS_PARTS,
  CAPTION_CLASS_PICTURES,
  CAPTION_CLASS_SHORT,
  CAPTION_CLASS_WORDS,
  CLICK_TO_ENLARGE,
  CREDIT_BY,
  CREDIT_CLASS_WORDS,
  CREDIT_MARKERS,
  NAME_JOINERS,
  NAME_PARTICLES,
  PICTURE_MARKERS,
  STAND_IN_KINDS,
  STAND_IN_LINE_WORDS,
  STAND_IN_PICTURES,
  STAND_IN_WORDS,
} from './lexicon/captions.js';

type TextNode = { data: string; parentNode: unknown };

/** Words that introduce a picture's credit, in the languages pages usually use (lexicon/captions.ts). */
const MARKER = groupOf(CREDIT_MARKERS);

/** "Foto: Name" or "(Fuente: Agency)" closing a caption; the boundary before it keeps "Fotomontage:" whole. */
const LABELLED = new RegExp(`(?:^|(?<=[\\s.,;:|–—(\\[-]))\\(?\\s*${MARKER}\\s*[:|]\\s*[^\\n]{0,100}$`, 'iu');
/** "Photo by Name", "Bild via <link>", "Image courtesy of Name" closing a caption. */
const BY = new RegExp(`(?:^|(?<=[\\s.,;:|–—(\\[-]))\\(?\\s*${MARKER}\\s+${groupOf(CREDIT_BY)}\\b[^\\n]{0,80}$`, 'iu');
/**
 * "Image illustrative", "Foto de archivo", "File photo": the picture is a stand-in, said of the picture, not
 * of the story.
 */
const STAND_IN = new RegExp(
  `(?:^|(?<=[\\s.,;:|–—(\\[-]))\\(?\\s*(?:${MARKER}\\s+(?:d[e']\\s?)?${groupOf(STAND_IN_WORDS)}|${groupOf(STAND_IN_KINDS)}\\s+${groupOf(STAND_IN_PICTURES)})\\b[^\\n]{0,100}$`,
  'iu',
);
/** "©" or "(c)" and the holder, closing a caption. */
const COPYRIGHT = /(?:^|(?<=[\s.,;:|–—([-]))(?:©|\(c\)\s)\s*[^\n]{0,80}$/iu;
/** An agency and photographer in brackets, "(REUTERS/Jane Doe)", "(AFP/Getty Images)", closing a caption. */
const BRACKETED_AGENCY = /\(\s*\p{Lu}[\p{L}.'’&\s-]{0,40}(?:\/\s*\p{L}[\p{L}.'’&\s-]{0,40})+\)\s*$/u;
/**
 * "Caption /Agency": a trailing credit after a slash spaced on its left only, as Polish and other sites set
 * it. A slash spaced on both sides ("Rinder- / Schweinehaltung", "in / bei") joins words.
 */
const SLASH_TAIL = /\s\/\p{L}[\p{L}.'’&\s-]{0,40}$/u;
/** A caption's last part that is only "Name/Agency" names ("Jane Doe/WENN.com", "REUTERS/Jane Doe"). */
const NAME_SLASH_NAME = /(?:^|(?<=[.!?]\s))\p{Lu}(?:[\p{L}'’&\s-]|\.(?!\s)){0,40}(?:\/\s*\p{L}(?:[\p{L}'’&\s-]|\.(?!\s)){0,40})+[.]?\s*$/u;
/** An instruction to click the picture: "Zum Vergrößern auf das Bild klicken.", "Click to enlarge". */
const ENLARGE = new RegExp(`[^.!?\\n]*\\b${groupOf(CLICK_TO_ENLARGE)}[^.!?\\n]*[.!?]?`, 'giu');

/** Markers that can only mean a picture (not "source", which also cites a fact in running text). */
const PICTURE_MARKER = groupOf(PICTURE_MARKERS);
/**
 * A short line of its own that starts as a picture's credit ("Foto: dpa", "Image illustrative : <link>"):
 * it belongs to a picture even where the picture is gone or sits elsewhere.
 */
const STANDALONE = new RegExp(
  `^\\s*\\(?\\s*(?:${PICTURE_MARKER}\\s*[:|]|${PICTURE_MARKER}\\s+(?:d[e']\\s?)?${groupOf(STAND_IN_LINE_WORDS)}\\b|${groupOf(STAND_IN_KINDS)}\\s+${groupOf(STAND_IN_PICTURES)}\\b)`,
  'iu',
);
/** Zero-width characters (soft hyphens) that would split the words the patterns look for. */
const INVISIBLE = /[\u00ad\u200b\u200c\u2060\ufeff]/g;

/** Class or id naming a caption, or a credit/source line that belongs to a picture. */
const CAPTION_NAME = new RegExp(
  `${groupOf(CAPTION_CLASS_WORDS)}|(?:^|[\\s_-])${groupOf(CAPTION_CLASS_SHORT)}(?:[\\s_-]|$)|${groupOf(CAPTION_CLASS_PICTURES)}[-_]?${groupOf(CAPTION_CLASS_PARTS)}`,
  'i',
);
const CREDIT_NAME = new RegExp(`(?:^|[\\s_-])${groupOf(CREDIT_CLASS_WORDS)}(?:[\\s_-]|\\d|$)`, 'i');
/** A credit or caption line is short; a longer block is prose that happens to sit near a picture. */
const MAX_CAPTION_CHARS = 600;
const MAX_CREDIT_CHARS = 150;
/** A box holding a picture and this much text is a picture with its caption, not a section of the article. */
const MAX_BOX_CHARS = 400;

const MEDIA_OR_TABLE = tagNames('img', 'picture', 'video', 'iframe', 'table');
const LEAF_BREAKERS = tagNames('p', 'div', 'ul', 'ol', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote');
const FIGURE = tagNames('figure');
const PICTURES = tagNames('img', 'picture');

/** What a credit cut took from an element that stays (a caption's tail, an alt text's), for the trace. */
export type CreditCut = (el: El, removed: string) => void;

export function stripCredits(root: El, cut?: CreditCut): void {
  // A picture's alt and title, and the title of the link around it (Markdown shows it as the link's title).
  const pictures = [...Array.from(root.querySelectorAll('img')), ...Array.from(root.querySelectorAll('a[title]')).filter((a) => a.querySelector('img'))];
  for (const img of pictures) {
    for (const attr of ['alt', 'title']) {
      const v = img.getAttribute(attr);
      // Set only when something was cut, so an alt text without a credit stays as the page wrote it.
      const keep = v ? survivingMask(v) : [];
      if (v && !keep.every(Boolean)) {
        cut?.(img as El, removedPart(v, keep));
        img.setAttribute(attr, cleanCaption(v));
      }
    }
  }
  for (const el of Array.from(root.querySelectorAll('*')) as El[]) {
    if (!root.contains(el) || firstTagInside(el, MEDIA_OR_TABLE)) continue;
    const names = `${el.getAttribute('class') ?? ''} ${el.getAttribute('id') ?? ''} ${el.getAttribute('itemprop') ?? ''}`;
    // Asked of every element, an article's wrappers included: the length walk stops past the limit.
    const atMost = (limit: number) => trimmedLengthAtMost(el, limit);
    const nearPicture = byPicture(el);
    // A small block named as a credit next to a picture is only the credit.
    if (nearPicture && atMost(MAX_CREDIT_CHARS) && CREDIT_NAME.test(names)) {
      drop(el);
      continue;
    }
    // The tag or the name says caption ("wp-caption-text", "photo-title"), or it is a short line by a picture.
    const caption = el.tagName === 'FIGCAPTION' || CAPTION_NAME.test(names) || (nearPicture && isLeafBlock(el));
    if (!caption && atMost(MAX_CREDIT_CHARS) && isLeafBlock(el) && STANDALONE.test((el.textContent ?? '').replace(INVISIBLE, ''))) drop(el);
    else if (caption && atMost(MAX_CAPTION_CHARS)) cleanElement(el, cut);
  }
}

/** The caption text without its credit and "click to enlarge"; what is left may be empty. */
export function cleanCaption(text: string): string {
  const keep = survivingMask(text);
  let out = '';
  for (let i = 0; i < text.length; i++) if (keep[i]) out += text[i];
  out = collapseSpace(out);
  return /[\p{L}\p{N}]/u.test(out) ? out : '';
}

/** Which characters of a caption stay: all but the "click to enlarge" sentences and the credit at the end. */
function survivingMask(text: string): boolean[] {
  const keep = new Array<boolean>(text.length).fill(true);
  for (const m of text.matchAll(ENLARGE)) keep.fill(false, m.index, m.index + m[0].length);
  // Credits come last; a caption can stack two ("… (REUTERS/Jane Doe) Foto: Archiv").
  let end = text.length;
  let cutAny = false;
  for (let round = 0; round < 3; round++) {
    // The caption up to `end` with the removed sentences blanked, so offsets stay those of `text`.
    const visible = Array.from(text.slice(0, end), (c, i) => (keep[i] ? c : ' ')).join('');
    const trimmed = visible.replace(/[\s,;:|–—/-]+$/u, '');
    let cut = trimmed.length;
    for (const re of [LABELLED, BY, STAND_IN, COPYRIGHT, BRACKETED_AGENCY, SLASH_TAIL, NAME_SLASH_NAME]) {
      const m = re.exec(trimmed.slice(0, cut));
      // "Foto: Ehrenamtler reparieren Geräte" is a caption with a label, "Foto: Jane Doe/Agency" a credit: a
      // label opening the whole caption marks a credit only when names follow it.
      const whole = m !== null && !/[\p{L}\p{N}]/u.test(trimmed.slice(0, m.index));
      if (m && whole && re === LABELLED && !namesOnly(m[0])) continue;
      // A whole caption of names around a spaced slash ("Seminar Wertermittlung / Baumkontrolle") is a title;
      // a credit writes "Jane Doe/Agency".
      if (m && whole && re === NAME_SLASH_NAME && /\s\/|\/\s/.test(m[0])) continue;
      if (m) cut = m.index;
    }
    if (cut === trimmed.length) break;
    end = cut;
    cutAny = true;
  }
  if (!cutAny) return keep;
  // Separators left dangling before the credit go with it.
  while (end > 0 && /[\s,;:|–—/-]/u.test(text[end - 1] ?? '')) end--;
  if (end < text.length && /[\p{L}\p{N}]/u.test(text.slice(0, end))) keep.fill(false, end);
  else if (end < text.length) keep.fill(false);
  return keep;
}

/** The characters of `text` the mask does not keep, for the trace. */
function removedPart(text: string, keep: boolean[]): string {
  let out = '';
  for (let i = 0; i < text.length; i++) if (!keep[i]) out += text[i];
  return out.replace(/\s+/g, ' ').trim();
}

/** Words a credit joins names with; any other lower-case word makes the text a description. */
const NAME_JOINER_SET = new Set(NAME_JOINERS);
const PARTICLE = new RegExp(`^${anyOf(NAME_PARTICLES)}$`);

/** True when the text after a credit label is names ("Jane Doe/Agency", "Stadt Stuttgart", "© dpa"). */
function namesOnly(labelled: string): boolean {
  const rest = labelled.replace(/^[^:|]*[:|]\s*/u, '').replace(/[()[\].,;]+/g, ' ');
  if (/[/©]/.test(rest)) return true;
  const words = rest.split(/\s+/).filter(Boolean);
  // One word is a credit whatever its case ("Foto: dpa", "Bild: privat").
  if (words.length <= 1) return true;
  if (words.length > 6) return false;
  // "von", "der" join names ("Ursula von der Leyen") but also start a description ("Flagge von Singapur"):
  // two or fewer capitalised words around them are not names enough.
  const names = words.filter((w) => /^[\p{Lu}\p{N}@]/u.test(w));
  const particles = words.some((w) => PARTICLE.test(w));
  return words.every((w) => /^[\p{Lu}\p{N}@]/u.test(w) || NAME_JOINER_SET.has(w.toLowerCase())) && names.length >= (particles ? 3 : 1);
}

/** Rewrites an element's text without its credit, cutting text nodes so links and emphasis stay. */
function cleanElement(el: El, cut?: CreditCut): void {
  const nodes = textNodes(el);
  for (const n of nodes) {
    const visible = n.data.replace(INVISIBLE, '');
    if (visible !== n.data) n.data = visible;
  }
  const full = nodes.map((n) => n.data).join('');
  if (!full.trim()) return;
  const keep = survivingMask(full);
  if (keep.every(Boolean)) return;
  if (!keep.some((k, i) => k && /[\p{L}\p{N}]/u.test(full[i] ?? ''))) {
    drop(el);
    return;
  }
  cut?.(el, removedPart(full, keep));
  let offset = 0;
  for (const n of nodes) {
    let out = '';
    for (let i = 0; i < n.data.length; i++) if (keep[offset + i]) out += n.data[i];
    offset += n.data.length;
    n.data = out;
  }
  for (const child of Array.from(el.querySelectorAll('*')).reverse()) if (!(child.textContent ?? '').trim() && !child.querySelector('img, br')) child.remove();
}

function textNodes(el: El): TextNode[] {
  const out: TextNode[] = [];
  const walk = (n: El): void => {
    for (const c of Array.from(n.childNodes)) {
      if (c.nodeType === 3) out.push(c as unknown as TextNode);
      else if (c.nodeType === 1) walk(c as El);
    }
  };
  walk(el);
  return out;
}

/** Removes a credit; a table cell is emptied instead, or the cells after it would move into its column. */
function drop(el: El): void {
  if (el.tagName === 'TD' || el.tagName === 'TH') el.textContent = '';
  else el.remove();
}

/** A block with no block children: a line of its own. */
function isLeafBlock(el: El): boolean {
  if (!['P', 'DIV', 'SPAN', 'SMALL', 'CITE', 'FIGCAPTION', 'EM', 'I', 'TD', 'TH'].includes(el.tagName)) return false;
  return !firstTagInside(el, LEAF_BREAKERS);
}

/**
 * Inside a figure, or inside a small box (up to two levels up) that holds a picture: a caption box beside the
 * image. The box must be small, or every paragraph of an article with one picture would count as a caption.
 */
function byPicture(el: El): boolean {
  if (closestTag(el, FIGURE)) return true;
  let p = el.parentElement;
  for (let i = 0; i < 2 && p; i++, p = p.parentElement)
    // The size first: a walk that stops past the limit, where the picture search would scan a whole article.
    if (trimmedLengthAtMost(p as El, MAX_BOX_CHARS) && firstTagInside(p as El, PICTURES)) return true;
  return false;
}
