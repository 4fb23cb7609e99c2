// What the bot-wall classifier looks at in a page's HTML: its title, its visible text (bounded), the
// sources of its frames and scripts, the ids, classes and actions of its forms and containers, a captcha
// widget's site key, a meta refresh and what its noscript says. One streaming pass (htmlparser2), no DOM,
// so the same facts come from a plain fetch's body and from a rendered page's serialised DOM.
import { Parser } from 'htmlparser2';
import { CHALLENGE_MARKUP } from './vocabulary.js';

export interface PageFacts {
  title: string;
  /** Visible text, whitespace collapsed, at most TEXT_KEEP_CHARS of it. */
  text: string;
  /** Length of the whole visible text (beyond what `text` keeps). */
  textLength: number;
  iframeSrcs: string[];
  scriptSrcs: string[];
  /** Ids, classes and form actions that name a challenge or captcha (CHALLENGE_MARKUP), e.g. "form#challenge-form". */
  challengeMarkup: string[];
  /** An element carries a captcha widget's site key (data-sitekey). */
  siteKey: boolean;
  metaRefresh: boolean;
  /** Links (a[href]) on the page: a wall offers next to none, a site's own page its navigation. */
  linkCount: number;
  /** Text of the page's noscript elements, whitespace collapsed (bounded). */
  noscriptText: string;
}

/** Enough text to judge a page by: walls are short, and an article is known to be long well before this. */
const TEXT_KEEP_CHARS = 20_000;
const LIST_MAX = 50;
/** Elements whose text a visitor does not read as the page. */
const HIDDEN = new Set(['script', 'style', 'template', 'noscript', 'head', 'title', 'svg', 'iframe', 'object']);

/** Thrown inside the parser's callbacks to stop reading a page already known to be long. */
const STOP = Symbol('stop');

/**
 * The page's facts; with `stopAfterChars`, reading stops once the visible text is longer than that (a long
 * page is no wall, so the rest need not be parsed), and textLength is then only known to exceed it.
 */
export function pageFacts(html: string, opts: { stopAfterChars?: number } = {}): PageFacts {
  const stopAfter = opts.stopAfterChars ?? Number.POSITIVE_INFINITY;
  const facts: PageFacts = {
    title: '',
    text: '',
    textLength: 0,
    iframeSrcs: [],
    scriptSrcs: [],
    challengeMarkup: [],
    siteKey: false,
    metaRefresh: false,
    linkCount: 0,
    noscriptText: '',
  };
  const hiddenDepth: string[] = [];
  let inTitle = false;
  let inNoscript = 0;
  let titleDone = false;
  const textParts: string[] = [];
  let kept = 0;
  let total = 0;
  let lastSpace = true;

  const note = (list: string[], value: string | undefined) => {
    if (value && list.length < LIST_MAX) list.push(value.trim().slice(0, 300));
  };

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'title' && !titleDone) inTitle = true;
        if (name === 'noscript') inNoscript++;
        if (HIDDEN.has(name)) hiddenDepth.push(name);
        if (name === 'iframe' || name === 'frame') note(facts.iframeSrcs, attrs.src ?? attrs['data-src']);
        if (name === 'script') note(facts.scriptSrcs, attrs.src);
        if (name === 'a' && attrs.href) facts.linkCount++;
        if (name === 'meta' && (attrs['http-equiv'] ?? '').toLowerCase() === 'refresh') facts.metaRefresh = true;
        if (attrs['data-sitekey'] !== undefined) facts.siteKey = true;
        for (const [kind, value] of [
          ['#', attrs.id],
          ['.', attrs.class],
          [' action=', name === 'form' ? attrs.action : undefined],
        ] as const) {
          if (value && CHALLENGE_MARKUP.test(value)) note(facts.challengeMarkup, `${name}${kind}${value}`);
        }
      },
      ontext(raw) {
        if (inTitle) {
          facts.title += raw;
          return;
        }
        if (inNoscript > 0 && facts.noscriptText.length < 2_000) facts.noscriptText += ` ${raw}`;
        if (hiddenDepth.length > 0) return;
        // Collapse whitespace as a reader sees it, counting every character but keeping only the first ones.
        for (const part of raw.split(/(\s+)/)) {
          if (part === '') continue;
          const isSpace = /^\s+$/.test(part);
          if (isSpace && lastSpace) continue;
          const piece = isSpace ? ' ' : part;
          lastSpace = isSpace;
          total += piece.length;
          if (kept < TEXT_KEEP_CHARS) {
            textParts.push(piece);
            kept += piece.length;
          }
        }
        if (total > stopAfter) throw STOP;
      },
      onclosetag(name) {
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleDone = true;
        }
        if (name === 'noscript' && inNoscript > 0) inNoscript--;
        if (HIDDEN.has(name)) {
          const at = hiddenDepth.lastIndexOf(name);
          if (at >= 0) hiddenDepth.length = at;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  try {
    parser.write(html);
    parser.end();
  } catch (err) {
    if (err !== STOP) throw err;
  }
  facts.title = facts.title.replace(/\s+/g, ' ').trim();
  facts.text = textParts.join('').trim().slice(0, TEXT_KEEP_CHARS);
  facts.textLength = Math.max(facts.text.length, total - (lastSpace ? 1 : 0));
  facts.noscriptText = facts.noscriptText.replace(/\s+/g, ' ').trim();
  return facts;
}
