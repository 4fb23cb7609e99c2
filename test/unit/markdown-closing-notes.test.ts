// Metadata labels, reader pitches, disclosures and author notes inside the article, on small pages written
// for these tests: each rule removes what it names and leaves the article's prose alone.
import { describe, expect, it } from 'vitest';
import { isAuthorBio, isBoilerplateLine } from '../../src/extract/boilerplate-text.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function article(inner: string): string {
  return `<html><body><article><h1>The hill orchard</h1>${PROSE.map((p) => `<p>${p}</p>`).join('')}${inner}</article></body></html>`;
}

describe('metadata, pitches and author notes inside the article', () => {
  it('drops metadata labels standing alone, taxonomy lines, reading times and citation hints', () => {
    for (const s of [
      'Von:',
      'Release Date:',
      'Quellenangaben:',
      'Category : Press Releases',
      'Tags: apples, pears',
      '5 min read',
      'Lesezeit: 4 Minuten',
      'Ten tekst przeczytasz w mniej niż minutę',
      'Suggested citation: Doe, Jane: The orchard, 2020.',
    ])
      expect(isBoilerplateLine(s), s).toBe(true);
    for (const s of ['Von Äpfeln und Birnen erzählt dieser Text.', 'The category of the trees is old varieties.', 'We read for five minutes.'])
      expect(isBoilerplateLine(s), s).toBe(false);
    const { markdown } = htmlToMarkdown(article('<p>Release Date:</p><p>Tags: apples, pears</p><p>5 min read</p>'), 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    for (const s of ['Release Date', 'Tags:', 'min read']) expect(markdown).not.toContain(s);
  });

  it('drops a date with a one-word section label, but not a date before a sentence', () => {
    for (const s of ['24. März 2004, 19:49 | Genesis', '2021-10-16 | Botschaft']) expect(isBoilerplateLine(s), s).toBe(true);
    expect(isBoilerplateLine('2021-10-16 | The cooperative met to plan the grafting')).toBe(false);
  });

  it('drops thanks, shop notices, "did you know our…" and subscription pitches in several languages', () => {
    const pitches = [
      'Thank you for your support!',
      'Der Artikel wurde erfolgreich hinzugefügt.',
      'Kennt ihr schon unseren Obstfinder?',
      '¿Ya sabías que en Huerta.com tenemos canal de noticias?',
      'Tú también puedes apoyar. Cancela cuando quieras.',
      'Submit your letters to the editor via this form.',
      'Do you want to hear from us? Sign up here',
    ];
    for (const s of pitches) expect(isBoilerplateLine(s), s).toBe(true);
    expect(isBoilerplateLine('The cooperative thanked the school for the crates.')).toBe(false);
    const { markdown } = htmlToMarkdown(article(pitches.map((s) => `<p>${s}</p>`).join('')), 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    for (const s of pitches) expect(markdown).not.toContain(s.slice(0, 20));
  });

  it('drops a site disclosure paragraph longer than a line', () => {
    const s =
      'We recommend the best tools through an independent review process, and advertisers do not influence our picks. We may receive compensation if you visit partners we recommend, which helps to keep the orchard news free to read for everyone in the valley.';
    expect(s.length).toBeGreaterThan(200);
    expect(isBoilerplateLine(s)).toBe(true);
    expect(isBoilerplateLine('The cooperative may receive a grant from the district next year.')).toBe(false);
  });

  it('drops an author note closing the article, not the same sentence earlier nor a closing paragraph of news', () => {
    for (const s of [
      'Jane Doe is the founder of Orchard News and a keen grafter.',
      'Jane Doe grew up among apple trees. She has been writing about farming since 2008.',
      'ist Gründungspartner der Kanzlei Doe in Berlin.',
      'Jana Doe studierte Agrarwissenschaften, bevor sie als Volontärin zur Zeitung kam.',
      'Juana Pérez es periodista y vive en el valle.',
    ])
      expect(isAuthorBio(s), s).toBe(true);
    for (const s of [PROSE[3] ?? '', 'The mayor said the orchard is a treasure of the village.']) expect(isAuthorBio(s), s).toBe(false);
    const bio = 'Jane Doe is the founder of Orchard News and a keen grafter.';
    const end = htmlToMarkdown(article(`<p><em>${bio}</em></p>`), 'The hill orchard').markdown;
    expect(end).toContain(PROSE[3]);
    expect(end).not.toContain('keen grafter');
    const mid = htmlToMarkdown(
      `<html><body><article><h1>The hill orchard</h1><p>${PROSE[0]}</p><p>${bio}</p>${PROSE.slice(1)
        .map((p) => `<p>${p}</p>`)
        .join('')}</article></body></html>`,
      'The hill orchard',
    ).markdown;
    expect(mid).toContain('keen grafter');
  });

  it('drops a block named "postmetadata" (date and categories under a post), however long its link list', () => {
    const cats = Array.from({ length: 12 }, (_, i) => `<a href="/category/c${i}">Category number ${i}</a>`).join(', ');
    const meta = `<p class="postmetadata alt">This entry was made on Tuesday, 6 May 2014 at 23:30 and sorted into ${cats}. You can follow any answers to it.</p>`;
    const { markdown } = htmlToMarkdown(article(meta), 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toContain('sorted into');
  });

  it('drops a "filed under" line judged by its words outside the category links', () => {
    const cats = Array.from({ length: 12 }, (_, i) => `<a href="/category/c${i}">Category number ${i}</a>`).join(', ');
    const { markdown } = htmlToMarkdown(article(`<p>Posted on Tuesday, 6 May 2014 at 23:30 and filed under ${cats}.</p>`), 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toContain('filed under');
  });
});
