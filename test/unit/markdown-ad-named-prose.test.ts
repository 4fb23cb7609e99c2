// A block named only as an advert that holds several long paragraphs of prose is the article hosting the
// ad slots ("story-ad"), not an advert; a real ad slot still goes.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate } from '../../src/extract/boilerplate.js';
import type { El } from '../../src/extract/dom.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

const LONG = [`${PROSE[0]} ${PROSE[1]}`, `${PROSE[1]} ${PROSE[2]}`, `${PROSE[2]} ${PROSE[3]}`];

function pruned(html: string): string {
  const doc = parseHTML(`<html><body>${html}</body></html>`).document;
  const body = doc.body as unknown as El;
  pruneBoilerplate(body);
  return body.textContent ?? '';
}

describe('pruneBoilerplate blocks named as adverts', () => {
  const intro = `<div class="intro">${[...LONG, ...LONG].map((p) => `<p>${p}</p>`).join('')}</div>`;

  it('keeps a block named as an advert that holds paragraphs of prose', () => {
    const text = pruned(`${intro}<div class="story-ad">${LONG.map((p) => `<p>Later: ${p}</p>`).join('')}</div>`);
    expect(text).toContain(`Later: ${LONG[2]}`);
  });

  it('still drops an ad slot with a line of text', () => {
    const text = pruned(`${intro}<div class="story-ad"><p>Fresh apples delivered to your door, order today.</p></div>`);
    expect(text).not.toContain('Fresh apples delivered');
  });
});
