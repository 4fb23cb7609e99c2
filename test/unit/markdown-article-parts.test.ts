// Parts of the article that pruning must leave where Readability keeps them, each on a small page written
// for these tests: headings over something no text shows, sections whose headings link to their own anchor,
// glossed phrases in a block Readability re-tagged, a sub-list of the article's list, a date inside a line.
import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { pruneBoilerplate } from '../../src/extract/boilerplate.js';
import type { El } from '../../src/extract/dom.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

/** The article's prose followed by `extra`, pruned; the text that is left. */
function pruned(extra: string): string {
  const doc = parseHTML(`<html><body><div>${PROSE.map((p) => `<p>${p}</p>`).join('')}${extra}</div></body></html>`).document;
  const body = doc.body as unknown as El;
  pruneBoilerplate(body);
  return (body.textContent ?? '').replace(/\s+/g, ' ');
}

describe('article parts kept by pruning', () => {
  it('keeps headings that had nothing under them before pruning, and drops one that pruning emptied', () => {
    // Formulas drawn by a script leave their headings bare in the HTML; a link list's heading is bare only once the list is pruned.
    const formulas = '<h2>The Lorenz equations</h2><h2>The Cauchy-Schwarz inequality</h2>';
    const links = '<h3>Elsewhere</h3><ul><li><a href="/a">Apples</a></li><li><a href="/b">Pears</a></li><li><a href="/c">Plums</a></li></ul>';
    const text = pruned(links + formulas);
    expect(text).toContain('The Lorenz equations');
    expect(text).toContain('The Cauchy-Schwarz inequality');
    expect(text).not.toContain('Elsewhere');
  });

  it('keeps sections whose headings link to their own anchor, and still drops teasers of other pages', () => {
    const section = (id: string, title: string) =>
      `<h2 id="${id}"><a class="toclink" href="https://orchard.example/post#${id}">${title}</a></h2><p>A short section about ${title.toLowerCase()}.</p>`;
    const text = pruned(section('pruning', 'Pruning the trees') + section('grafting', 'Grafting new kinds'));
    expect(text).toContain('A short section about pruning the trees.');
    expect(text).toContain('Grafting new kinds');
    const teaser = (slug: string, title: string) => `<h2><a href="https://orchard.example/${slug}">${title}</a></h2><p>A short teaser of ${slug}.</p>`;
    expect(pruned(teaser('pears', 'Pears in winter') + teaser('plums', 'Plums at last'))).not.toContain('Pears in winter');
  });

  it('keeps glossed phrases of a sentence set in a DIV of bare text (a table cell Readability re-tagged)', () => {
    const cell =
      '<div><a class="popup" onclick="note()">I</a> am a <a class="popup" onclick="note()">rather elderly</a> man. The nature of my <a class="popup">avocations</a> for the last thirty years has brought me into contact with an interesting set of men.</div>';
    const text = pruned(cell);
    expect(text).toContain('I am a rather elderly man.');
    expect(text).toContain('my avocations for');
  });

  it("keeps a list of links under an item that introduces it in the article's list, and drops a menu's sub-list", () => {
    const notes =
      '<ul><li>We have the green light for another round of students hacking on the picture-in-picture player next term.</li>' +
      '<li>In progress:<ul><li><a href="https://bugs.example/1">Bug 1 – Fullscreen window is affected by switching the source</a></li>' +
      '<li><a href="https://bugs.example/2">Bug 2 – Add telemetry for tracking the use of several windows</a></li></ul></li></ul>';
    const text = pruned(notes);
    expect(text).toContain('Bug 1 – Fullscreen window is affected by switching the source');
    const menu =
      '<ul><li><a href="/shop">Shop</a><ul><li><a href="/shop/apples">Apples by the crate</a></li><li><a href="/shop/cider">Cider and juice</a></li></ul></li></ul>';
    expect(pruned(menu)).not.toContain('Apples by the crate');
  });

  it('keeps a date set among the words of its line, and drops a date line standing alone', () => {
    const cited = '<p>The harvest figures come from the regional growers’ association (retrieved <span class="nowrap">2016-05-01</span>).</p>';
    const text = pruned(cited + '<p><span>Updated: 3 May 2021</span></p>');
    expect(text).toContain('retrieved 2016-05-01');
    expect(text).not.toContain('Updated: 3 May 2021');
  });
});
