// A section heading Readability dropped is put back in front of its paragraph when it sits directly between
// two paragraphs Readability kept, in their container; a widget's heading between them is not.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import type { El } from '../../src/extract/dom.js';
import { paragraphs } from '../../src/extract/prose-container.js';
import { restoreSectionHeadings } from '../../src/extract/section-headings.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

const body = (html: string) => parseHTML(`<html><body>${html}</body></html>`).document.body as unknown as El;
const article = () => body(`<div>${PROSE.map((p) => `<p>${p}</p>`).join('')}</div>`).firstElementChild as El;

describe('restoreSectionHeadings', () => {
  it('puts back a heading that sits between two kept paragraphs', () => {
    const page = body(`<div class="entry"><p>${PROSE[0]}</p><p>${PROSE[1]}</p><h2>An interview with Anna Berg</h2><p>${PROSE[2]}</p><p>${PROSE[3]}</p></div>`);
    const kept = article();
    restoreSectionHeadings(kept, paragraphs(page));
    const html = kept.innerHTML;
    expect(html).toContain('<h2>An interview with Anna Berg</h2>');
    expect(html.indexOf('An interview')).toBeLessThan(html.indexOf(PROSE[2]!));
    expect(html.indexOf('An interview')).toBeGreaterThan(html.indexOf(PROSE[1]!));
  });

  it('does not put back a heading inside a widget of its own', () => {
    const page = body(
      `<div class="entry"><p>${PROSE[0]}</p><p>${PROSE[1]}</p><div class="player"><h4>Listen to Anna Berg</h4></div><p>${PROSE[2]}</p><p>${PROSE[3]}</p></div>`,
    );
    const kept = article();
    restoreSectionHeadings(kept, paragraphs(page));
    expect(kept.innerHTML).not.toContain('Listen to Anna Berg');
  });
});
