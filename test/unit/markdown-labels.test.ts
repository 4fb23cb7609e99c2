// Short labels and metadata lines around an article (a date and its category, a permalink, a "hide sources"
// toggle, the agency signing a news item, the site's domain stamped under it): each goes, and the prose, the
// subheadings and the words of the same kind inside sentences stay.
import { describe, expect, it } from 'vitest';
import { isBoilerplateLine, isDateLine, isSectionHeading } from '../../src/extract/boilerplate-text.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function article(before: string, after = ''): string {
  return `<html><body><header><a href="/">Orchard news</a></header><article><h1>The hill orchard</h1>${before}${PROSE.map((p) => `<p>${p}</p>`).join('')}${after}</article></body></html>`;
}

const md = (html: string) => htmlToMarkdown(html, 'The hill orchard').markdown;

describe('labels and metadata lines', () => {
  it('recognises permalinks, show/hide toggles and the newsroom as author', () => {
    for (const s of [
      'Permalink: https://example.org/p/x1',
      'Permalink',
      'Quellen ausblenden',
      'Show more',
      'Artikel Redaktion Orchardpress',
      'Online-Redaktion',
    ])
      expect(isBoilerplateLine(s), s).toBe(true);
    for (const s of ['Rezept merken', 'Tipp favorisieren', 'Save article', 'Share this recipe']) expect(isBoilerplateLine(s), s).toBe(true);
    for (const s of ['Show more respect to the old trees', 'Äpfel richtig lagern', 'Die Redaktion besuchte den Obstgarten am Montag.'])
      expect(isBoilerplateLine(s), s).toBe(false);
  });

  it('reads a short label before a date as part of the date line', () => {
    expect(isDateLine('News date : 04/21/2023')).toBe(true);
    expect(isDateLine('Datum: 31/08/2019')).toBe(true);
  });

  it('treats a sponsors heading as the start of a box, not a section of the article', () => {
    for (const s of ['Sponsoren und Partner', 'Our sponsors', 'Unsere Partner']) expect(isSectionHeading(s), s).toBe(true);
    expect(isSectionHeading('Partner')).toBe(false);
  });

  it('drops a date and a category on lines of their own in one block', () => {
    const out = md(article('<div class="info">12.03.2023 10:15<br>Category: <a href="/c/orchards">Orchards</a></div>'));
    expect(out).toContain(PROSE[0]);
    expect(out).not.toContain('Category');
    expect(out).not.toContain('12.03.2023');
  });

  it('drops date and category pairs separated by spaces on one line', () => {
    const out = md(article('', '<p>News date : 04/21/2023&nbsp;&nbsp;&nbsp;Category : <a href="/c/press">Press releases</a></p>'));
    expect(out).toContain(PROSE[3]);
    expect(out).not.toContain('Press releases');
  });

  it('drops a label left bare once its date went', () => {
    const out = md(article('<p>Release date: <time datetime="2023-05-03">3 May 2023</time></p>'));
    expect(out).toContain(PROSE[0]);
    expect(out).not.toContain('Release date');
  });

  it('drops the agency or initials signing the item, last', () => {
    for (const sign of ['abc/XYZ', '(xy/orch)', '<strong>ORCH</strong>']) {
      const out = md(article('', `<p>${sign}</p>`));
      expect(out, sign).toContain(PROSE[3]);
      expect(out, sign).not.toMatch(/abc\/XYZ|xy\/orch|ORCH\b/);
    }
    // The same token earlier in the article is content.
    expect(md(article('<p>ORCH</p>'))).toContain('ORCH');
  });

  it("drops the site's domain standing alone, not a domain in a sentence, a link or over a list", () => {
    const out = md(
      article(
        '<p><strong>ORCHARDNEWS.COM</strong></p>',
        '<p>The full harvest table is on <em>orchardstats.org</em> for anyone who wants it.</p><p>fruitpay.de</p><ul><li>Pay within 14 days</li><li>No fee</li></ul>',
      ),
    );
    expect(out).toContain(PROSE[0]);
    expect(out).not.toContain('ORCHARDNEWS.COM');
    expect(out).toContain('on _orchardstats.org_ for anyone');
    expect(out).toContain('fruitpay.de');
  });

  it('drops a heading set as a bold line of its own and the box under it, but not a list item titled alike', () => {
    expect(isSectionHeading('Möchten Sie den Artikel teilen?')).toBe(true);
    expect(isSectionHeading('Was this article helpful?')).toBe(true);
    const out = md(
      article(
        '',
        '<div class="box"><hr><strong>Was this article helpful?</strong><br><img src="https://example.org/star.gif" alt="1 star"><em>12 votes</em></div>' +
          '<ol><li><strong>Comments</strong><br>We agreed to answer the letters of the neighbours every spring.</li></ol>',
      ),
    );
    expect(out).toContain(PROSE[3]);
    expect(out).not.toContain('Was this article helpful');
    expect(out).not.toContain('12 votes');
    expect(out).toContain('**Comments**');
  });

  it('judges a centred line like any other line', () => {
    const out = md(article('', '<center>- Anzeige -<br><a href="https://ads.example/c"><img src="https://ads.example/b.png"></a></center>'));
    expect(out).toContain(PROSE[3]);
    expect(out).not.toContain('Anzeige');
  });

  it('drops a label left with nothing after it, not one heading text nor a phrase ending a sentence', () => {
    const out = md(
      article(
        '',
        '<p>Grafted varieties: <strong>Boskoop and</strong> <strong>these other ones:</strong></p><h3>Tools needed:</h3><p>Shears and a ladder.</p>' +
          '<div class="tools"><ul><li>This page:</li><li><a href="https://example.org/print" title="Print"></a></li></ul></div>',
      ),
    );
    expect(out).toContain('these other ones:');
    expect(out).toContain('Tools needed:');
    expect(out).not.toContain('This page:');
  });

  it('drops the paywall box and a pointer to the next page', () => {
    expect(isSectionHeading('To continue reading, create your free account')).toBe(true);
    expect(isSectionHeading('We continued reading the old harvest records')).toBe(false);
    expect(isBoilerplateLine('… weiter zu „Obstbäume schneiden“')).toBe(true);
    const out = md(article('', '<div class="box"><h2>Pour lire la suite <br> créez votre compte</h2><p>Ou connectez-vous <a href="/login">ici</a></p></div>'));
    expect(out).toContain(PROSE[3]);
    expect(out).not.toContain('lire la suite');
  });
});
