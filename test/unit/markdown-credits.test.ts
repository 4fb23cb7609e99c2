// Photo credits and "click to enlarge" go; the descriptive caption stays.
import { describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import type { El } from '../../src/extract/dom.js';
import { cleanCaption, stripCredits } from '../../src/extract/credits.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function page(picture: string): string {
  return `<html><body><article><p>${PROSE[0]}</p><p>${PROSE[1]}</p>${picture}<p>${PROSE[2]}</p><p>${PROSE[3]}</p></article></body></html>`;
}

function convert(picture: string): string {
  const { markdown } = htmlToMarkdown(page(picture), 'The hill orchard');
  for (const p of PROSE) expect(markdown).toContain(p);
  return markdown;
}

describe('htmlToMarkdown photo credits', () => {
  it('cuts a labelled credit off a figure caption and the image text', () => {
    const md = convert(
      '<figure><img src="https://example.org/a.jpg" alt="Pickers in the orchard. Foto: Jane Doe/Agency"><figcaption>Pickers in the orchard at dawn. Crédito: Jane Doe/Agency</figcaption></figure>',
    );
    expect(md).toContain('Pickers in the orchard at dawn.');
    expect(md).toContain('![Pickers in the orchard.](https://example.org/a.jpg)');
    expect(md).not.toContain('Jane Doe');
  });

  it('cuts an agency credit in brackets and drops a caption that is only a credit', () => {
    const md = convert(
      '<figure><img src="https://example.org/a.jpg" alt=""><figcaption>The chairwoman of the cooperative (REUTERS/Jane Doe)</figcaption></figure><figure><img src="https://example.org/b.jpg" alt=""><figcaption>. Imagen: Agencia</figcaption></figure>',
    );
    expect(md).toContain('The chairwoman of the cooperative');
    expect(md).not.toContain('REUTERS');
    expect(md).not.toContain('Agencia');
  });

  it('drops a credit line named as such beside the picture', () => {
    const md = convert(
      '<figure><img src="https://example.org/a.jpg" alt=""><figcaption>Old apple varieties</figcaption><span class="description">Jane Doe/WENN.com</span></figure><div class="image-box"><img src="https://example.org/b.jpg" alt="A barn"><p class="image-box__caption">Crates in the barn.</p><p class="image-box__caption--source">John Roe, Main Street, Hilltown.</p></div>',
    );
    expect(md).toContain('Old apple varieties');
    expect(md).toContain('Crates in the barn.');
    expect(md).not.toContain('WENN');
    expect(md).not.toContain('John Roe');
  });

  it('drops "click to enlarge" and a "Bild via" credit, keeping the rest of the caption', () => {
    const md = convert(
      '<figure class="wp-caption"><img src="https://example.org/map.png" alt="Map of the orchards. Zum Vergrößern auf das Bild klicken."><figcaption class="wp-caption-text">Map of the orchards. Zum Vergrößern auf das Bild klicken. (June 2016)</figcaption></figure><div class="wp-caption"><img src="https://example.org/c.jpg" alt=""><p class="wp-caption-text">Harvest festival, Bild <a href="https://example.org/source">via</a></p></div>',
    );
    expect(md).toContain('Map of the orchards.');
    expect(md).toContain('(June 2016)');
    expect(md).toContain('Harvest festival');
    expect(md).not.toContain('Vergrößern');
    expect(md).not.toContain('via');
  });

  it('cuts credits from the title of a link around a picture, and a "click the picture" sentence', () => {
    const md = convert(
      '<p><a href="https://example.org/big.jpg" title="The blessing is tomorrow. Foto: Jane Doe"><img src="https://example.org/small.jpg" alt=""></a></p><figure><img src="https://example.org/v.jpg" alt=""><figcaption><em>The hill seen from space. Zum Starten des Videos bitte das Bild anklicken.</em></figcaption></figure>',
    );
    expect(md).toContain('"The blessing is tomorrow."');
    expect(md).not.toContain('Jane Doe');
    expect(md).toContain('The hill seen from space.');
    expect(md).not.toContain('anklicken');
  });

  it('empties a table cell that only credits the picture above it, keeping the columns in place', () => {
    const { document } = parseHTML(
      '<html><body><div id="root"><table><tr><td><img src="https://example.org/a.jpg" alt="Trees"></td><td><img src="https://example.org/b.jpg" alt="Crates"></td></tr><tr><td>Quelle: Jane Doe/Agency</td><td>Crates in the barn</td></tr></table></div></body></html>',
    );
    const root = document.getElementById('root') as unknown as El;
    stripCredits(root);
    const cells = Array.from(root.querySelectorAll('tr:last-child td')).map((td) => td.textContent);
    expect(cells).toEqual(['', 'Crates in the barn']);
  });

  it('drops a standalone line that credits a picture', () => {
    const md = convert('<hr><p>Image illus&shy;trative&nbsp;: <a href="https://example.org/photos/1">Apples on a table</a></p>');
    expect(md).not.toContain('Apples on a table');
  });

  it('keeps captions and prose that only look like credits', () => {
    const md = convert(
      '<figure><img src="https://example.org/a.jpg" alt=""><figcaption>Fotomontage: the hill in 1952 and today</figcaption></figure><p>The best part comes now:</p><p>Source: the cooperative reports a record year.</p>',
    );
    expect(md).toContain('Fotomontage: the hill in 1952 and today');
    expect(md).toContain('The best part comes now:');
    expect(md).toContain('Source: the cooperative reports a record year.');
  });
});

describe('cleanCaption', () => {
  it.each([
    ['Pickers at dawn. Photo: Jane Doe', 'Pickers at dawn.'],
    ['Pickers at dawn, photo by Jane Doe', 'Pickers at dawn'],
    ['Pickers at dawn /Getty Images', 'Pickers at dawn'],
    ['Pickers at dawn © Jane Doe', 'Pickers at dawn'],
    ['Pickers at dawn (crédito: Jane Doe/CB)', 'Pickers at dawn'],
    ['Foto: dpa', ''],
    ['Pickers at dawn', 'Pickers at dawn'],
    ['Prices rose 3 km/h faster', 'Prices rose 3 km/h faster'],
    ['Foto: Jane Doe/Agency', ''],
    ['Grafik: Stadt Hilltown', ''],
    ['Bild: Flagge von Singapur', 'Bild: Flagge von Singapur'],
    ['Foto: Ehrenamtler reparieren Geräte', 'Foto: Ehrenamtler reparieren Geräte'],
    ['Seminar Wertermittlung / Baumkontrolle', 'Seminar Wertermittlung / Baumkontrolle'],
    ['Wissen in Ackerbau, Rinder- / Schweinehaltung', 'Wissen in Ackerbau, Rinder- / Schweinehaltung'],
    ['Walkers by the sea. Jane Doe / Agency', 'Walkers by the sea.'],
  ])('%s', (input, output) => {
    expect(cleanCaption(input)).toBe(output);
  });
});
