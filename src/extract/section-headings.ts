// Readability drops some of the article's own section headings: the first heading that resembles the title
// (an interview's "In conversation with …" under a headline naming the same person) and headings whose
// class it scores as negative. A heading of the page that sits directly between two paragraphs Readability
// kept is such a section heading; it is put back in front of that paragraph.
import { collapseSpace as normalised, type El } from './dom.js';
import type { Paragraph } from './prose-container.js';
import { TextFinder } from './text-finder.js';

const SECTION_HEADING = /^H[2-6]$/;

/**
 * Puts the dropped section headings back into `article`; returns the headings put back (for the trace).
 * `articleText`: the article's text normalised, when the caller already has it.
 */
export function restoreSectionHeadings(article: El, paras: Paragraph[], articleText = normalised(article.textContent ?? '')): El[] {
  const restored: El[] = [];
  const text = new TextFinder(articleText);
  const kept = (p: Paragraph) => p.weight > 0 && text.has(p.text);
  for (const [k, p] of paras.entries()) {
    if (!SECTION_HEADING.test(p.el.tagName) || text.has(p.text)) continue;
    const [prev, next] = [paras[k - 1], paras[k + 1]];
    // A heading inside a widget of its own (an audio player's "listen", a gallery's title) is not the text's.
    if (!prev || !next || !kept(prev) || !kept(next) || p.el.parentElement !== next.el.parentElement) continue;
    const target = (Array.from(article.querySelectorAll(next.el.tagName)) as El[]).find((el) => normalised(el.textContent ?? '') === next.text);
    if (!target?.parentElement) continue;
    const heading = p.el.cloneNode(true) as El;
    target.parentElement.insertBefore(heading, target);
    restored.push(heading);
  }
  return restored;
}
