// The article's lead (standfirst): prose between the article's title and the first paragraph Readability
// kept, which Readability does not look at. Found to be given as the excerpt, never put into the body.
import { collapseSpace as normalisedText, singleSpaced, type El } from './dom.js';
import type { Paragraph } from './prose-container.js';
import { TextFinder } from './text-finder.js';

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
 * title's words. Empty when no title comes first or a list of links intervenes. `articleText`: the
 * article's text single-spaced, when the caller already has it.
 */
export function leadParagraphs(paras: Paragraph[], article: El, titles: string[], articleText = singleSpaced(article.textContent ?? '')): El[] {
  const text = new TextFinder(articleText);
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
