// Boilerplate recognised by its words and the text-density second opinion, on small pages written for
// these tests: each rule removes what it names and leaves the article's prose alone.
import { describe, expect, it } from 'vitest';
import { isBoilerplateLine, isDateLine, isSectionHeading } from '../../src/extract/boilerplate-text.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function article(inner: string): string {
  return `<html><body><header><a href="/">Orchard news</a></header><article><h1>The hill orchard</h1>${PROSE.map((p) => `<p>${p}</p>`).join('')}${inner}</article></body></html>`;
}

describe('boilerplate told by its words', () => {
  it('recognises section headings in several languages, whole headings only', () => {
    for (const s of [
      'Related articles',
      'Auch interessant:',
      'Das könnte Sie auch interessieren',
      'Weitere Artikel',
      'À lire aussi',
      'Czytaj także',
      '12 Kommentare',
      'Leave a reply',
      'meist-diskutiert',
      'Ansprechpartnerin zum Thema:',
    ])
      expect(isSectionHeading(s), s).toBe(true);
    for (const s of ['Related work on orchards', 'Comments from the jury were kind', 'The hill orchard']) expect(isSectionHeading(s), s).toBe(false);
  });

  it('recognises credits, advert labels, notices and date lines, but not prose mentioning them', () => {
    for (const s of [
      'Foto: Anna Berg',
      'Photo: Jan Novak / Shutterstock',
      'Featured image by Anna Berg/Orchard News.',
      'Anzeige',
      '© 2024 Orchard News. All rights reserved.',
      'Sign up for our newsletter',
      'Aufrufe: 1120',
      '(Noch keine Bewertungen)',
      'Dieser Beitrag gibt die Meinung des Autors wieder.',
      'Posted on 3 May 2021 and filed under Gardening',
    ])
      expect(isBoilerplateLine(s), s).toBe(true);
    for (const s of ['Aktualisiert: 11.04.2020, 10:27', 'Published on March 3, 2021', '16 marca 2021', '24.03.2004 | 19:49'])
      expect(isDateLine(s), s).toBe(true);
    expect(isDateLine('The orchard was planted on 3 May 1952 by the village.')).toBe(false);
    expect(isBoilerplateLine(PROSE[0]!)).toBe(false);
    // A date line of another script is still judged by its letters, not dropped wholesale.
    expect(isDateLine('2021年5月3日に果樹園で収穫祭が開かれました')).toBe(false);
  });

  it('drops a "related" section after the article: its heading and the teasers under it', () => {
    const related =
      '<h2>Weitere Artikel</h2><p><a href="/a">Pears in winter</a></p><p>Short teaser about pears.</p><ul><li><a href="/b">Cherries</a></li></ul>';
    const { markdown } = htmlToMarkdown(article(related), 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toContain('Weitere Artikel');
    expect(markdown).not.toContain('Short teaser about pears');
  });

  it('keeps a directory whose content stands under one label repeated: sections that together are most of the page are not boxes', () => {
    // A layout table of category blurbs under "Categories", split in two by a "more below" row: each half is
    // under half the page, both together are nearly all of it.
    const entry = (name: string, i: number) =>
      `<p><a href="/${name.toLowerCase()}">${name} (${i + 3})</a><br>${PROSE[i % PROSE.length]} Read about ${name.toLowerCase()} from planting to harvest.</p>`;
    const half = (names: string[], from: number) => `<h2>Categories</h2><div>${names.map((n, i) => entry(n, from + i)).join('')}</div>`;
    const nav = ['Home', 'Forums', 'Help', 'Latest'].map((n) => `<div><a href="/${n.toLowerCase()}">${n}</a></div>`).join('');
    const first = ['Apples', 'Pears', 'Cherries', 'Peaches', 'Apricots'];
    const second = ['Plums', 'Quinces', 'Medlars', 'Figs'];
    const page =
      `<html><body><table><tbody><tr><td>${nav}</td><td><h1>Orchard guide</h1><table><tbody>` +
      `<tr><td>${half(first, 0)}</td></tr><tr><td><a href="#more">4 more categories below</a></td></tr><tr><td>${half(second, first.length)}</td></tr>` +
      '</tbody></table></td></tr></tbody></table></body></html>';
    const { markdown } = htmlToMarkdown(page, 'Orchard guide');
    for (const name of [...first, ...second]) expect(markdown, name).toContain(`Read about ${name.toLowerCase()} from planting to harvest.`);
    expect(markdown).not.toContain('Categories');
  });

  it('drops a label that is not a heading but keeps the article resuming after it', () => {
    const inner = `<p>${PROSE[0]}</p><div><span>Advertisement:</span></div><p>${PROSE[1]} It is the second half of the story.</p>`;
    const { markdown } = htmlToMarkdown(`<html><body><article><h1>Split story</h1>${inner}<p>${PROSE[2]}</p></article></body></html>`, 'Split story');
    expect(markdown).not.toContain('Advertisement');
    expect(markdown).toContain('It is the second half of the story.');
    expect(markdown).toContain(PROSE[2]);
  });

  it('drops appeals for money or membership after the article, not prose about support', () => {
    const appeals = [
      'We rely on your support to keep the orchard news free for all.',
      'Jede kleine Spende hilft!',
      'Hazte miembro y disfruta de beneficios exclusivos',
      'Submit a letter to the editor.',
    ];
    for (const s of appeals) expect(isBoilerplateLine(s), s).toBe(true);
    expect(isBoilerplateLine('The cooperative needs new members to prune the trees.')).toBe(false);
    const { markdown } = htmlToMarkdown(article(appeals.map((s) => `<p>${s}</p>`).join('')), 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    for (const s of appeals) expect(markdown).not.toContain(s.slice(0, 20));
  });

  it('recognises advertising disclosures, app and channel pitches, print versions and video availability', () => {
    for (const s of [
      '*Werbung. Dieser Beitrag enthält Werbung für Obstgarten GmbH.',
      'This post contains affiliate links.',
      'For breaking news, download the Orchard News apps for iOS and Android.',
      '¡Mira lo que tiene nuestro canal de YouTube!',
      'Dieses Skript als PDF herunterladen',
      'Video verfügbar bis 28.02.2031',
      '(Alle Angaben ohne Gewähr)',
    ])
      expect(isBoilerplateLine(s), s).toBe(true);
    for (const s of ['The app for the orchard volunteers was written by pupils.', 'The cider is available in the village shop.'])
      expect(isBoilerplateLine(s), s).toBe(false);
  });

  it('recognises comment rules, listing counters, licence notices and "did you like it" pitches', () => {
    for (const s of [
      'Bitte registrieren Sie sich und halten Sie sich an unsere Netiquette.',
      'Es werden die Artikel 1 bis 10 von insgesamt 19 angezeigt!',
      'Showing 1 to 20 of 87 results',
      'Unless otherwise noted, content on this site is licensed under a Creative Commons licence.',
      'Hat dir dieser Artikel gefallen? Dann teile ihn!',
      'Rezept drucken Bei Pinterest speichern',
      'Jetzt neu! Besuchen Sie unseren Fan-Shop!',
      'Abonnieren Sie Orchard News und erhalten Sie exklusive Angebote!',
      'Visit our online store for cider and jam.',
    ])
      expect(isBoilerplateLine(s), s).toBe(true);
    expect(isBoilerplateLine('The orchard grew from 1 to 10 of the 19 hectares the village owns.')).toBe(false);
  });

  it('keeps a credited caption and the pictures with their alt text; only the credit goes', () => {
    // Figure captions are structure the reader keeps (a news photo's caption says what it shows), even
    // where an annotated corpus counts agency captions as boilerplate.
    const inner =
      '<figure><img src="https://orchard.example/press.jpg" alt="The mayor at the festival"><figcaption><span>The mayor opens the harvest festival.</span><span class="copyright">© Anna Berg</span></figcaption></figure>' +
      '<figure><img src="https://orchard.example/ladder.jpg" alt="A ladder"><figcaption>A ladder against an apple tree (Symbolbild).</figcaption></figure>';
    const { markdown } = htmlToMarkdown(article(inner), 'The hill orchard');
    expect(markdown).toContain('The mayor opens the harvest festival.');
    expect(markdown).not.toContain('Anna Berg');
    expect(markdown).toContain('![The mayor at the festival](https://orchard.example/press.jpg)');
    expect(markdown).toContain('A ladder against an apple tree (Symbolbild).');
    expect(markdown).toContain('![A ladder](https://orchard.example/ladder.jpg)');
  });

  it('drops photo credits, advert labels, copyright and date lines inside the article', () => {
    const inner =
      '<figure><img src="https://orchard.example/hill.jpg" alt="The hill"><figcaption>Apple trees in bloom.</figcaption></figure><p>Foto: Anna Berg</p><p>Anzeige</p><p>Aktualisiert: 11.04.2020, 10:27</p><p>© 2024 Orchard News. All rights reserved.</p>';
    const { markdown } = htmlToMarkdown(article(inner), 'The hill orchard');
    expect(markdown).toContain('Apple trees in bloom.');
    expect(markdown).toContain('![The hill](https://orchard.example/hill.jpg)');
    for (const gone of ['Anna Berg', 'Anzeige', '11.04.2020', 'All rights reserved']) expect(markdown).not.toContain(gone);
  });
});

describe('text-density second opinion', () => {
  it('prefers the block of prose to a list of names Readability crowns for its commas', () => {
    const names = Array.from({ length: 60 }, (_, i) => `<p><b>Name ${i}</b>, Univ., Dept., Town</p>`).join('');
    const letter = [0, 1, 2].map(() => PROSE.map((p) => `<p>${p}</p>`).join('')).join('');
    const html = `<html><body><div class="letter">${letter}</div><div class="names">${names}</div></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'An open letter');
    expect(markdown).toContain(PROSE[0]);
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toContain('Name 10');
  });
});

describe('lead paragraph', () => {
  it('gives the lead between the headline and the article body as the excerpt, not as body', () => {
    const lead = 'The village cooperative has saved its hill orchard from the new bypass after a two-year campaign.';
    const body = [0, 1, 2].map(() => PROSE.map((p) => `<p>${p}</p>`).join('')).join('');
    const html = `<html><body><nav><a href="/">Home</a> <a href="/news">News</a></nav><main><header><h1>Orchard saved</h1><div class="standfirst"><p>${lead}</p></div><p>By Ann Lee</p></header><div class="story-text">${body}</div></main><aside><a href="/x">Other story one</a> <a href="/y">Other story two</a></aside></body></html>`;
    const { markdown, excerpt } = htmlToMarkdown(html, 'Orchard saved');
    expect(excerpt).toBe(lead);
    expect(markdown).not.toContain(lead);
    expect(markdown).toContain(PROSE[0]);
    expect(markdown).not.toContain('Other story');
  });
});

describe('scripts-off pages and odd tables', () => {
  it('keeps what a <noscript> showed, but not its "enable JavaScript" notice', () => {
    const html = `<html><body><noscript><p>Please enable JavaScript in your browser.</p></noscript><noscript><article><h1>The hill orchard</h1>${PROSE.map((p) => `<p>${p}</p>`).join('')}</article></noscript></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'The hill orchard');
    expect(markdown).toContain(PROSE[2]);
    expect(markdown).not.toContain('enable JavaScript');
  });

  it('converts a table without rows instead of throwing', () => {
    const { markdown } = htmlToMarkdown(article('<table><caption>Harvest</caption></table>'), 'The hill orchard');
    expect(markdown).toContain(PROSE[0]);
  });

  it('does not escape an underscore inside a word', () => {
    const { markdown } = htmlToMarkdown(
      article('<p>Set DOWNLOAD_DIRECTORY before the first run of the orchard inventory script, then start it.</p>'),
      'The hill orchard',
    );
    expect(markdown).toContain('DOWNLOAD_DIRECTORY');
  });
});
