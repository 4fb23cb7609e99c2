// Promotions inside or right after the article ("see also" pointers, widget prompts, advert labels, the
// site's pitches), on small pages written for these tests: each goes, and prose with links or on the same
// subjects stays.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { isPromoText } from '../../src/extract/promos.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function page(inner: string, after = ''): string {
  const [first, second, ...rest] = PROSE.map((p) => `<p>${p}</p>`);
  return `<html><head><title>The hill orchard</title></head><body><article><h1>The hill orchard</h1>${first}${inner}${second}${rest.join('')}${after}</article></body></html>`;
}

function markdownOf(inner: string, after = ''): string {
  return htmlToMarkdown(page(inner, after), 'The hill orchard').markdown;
}

describe('"see also" pointers between the paragraphs', () => {
  it('drops a label and one linked headline, whatever block holds it', () => {
    for (const pointer of [
      '<h3>MIRA: <a href="https://news.example/pears">Pear growers meet in the valley to share their tools</a></h3>',
      '<blockquote><p><strong>PUEDES VER:</strong> <a href="https://news.example/frost">¿Qué hacer cuando llega la helada tardía?</a></p></blockquote>',
      '<h6><strong>Mire:&nbsp;</strong><a href="https://news.example/cider">El festival de la sidra vuelve este otoño</a></h6>',
      '<p><em>Lesen Sie auch: <a href="https://news.example/bienen">Warum die Bienen früher fliegen</a></em></p>',
    ]) {
      const markdown = markdownOf(pointer);
      expect(markdown, pointer).toContain(PROSE[1]);
      expect(markdown, pointer).not.toMatch(/MIRA|PUEDES VER|Mire|Lesen Sie auch/);
    }
  });

  it('keeps a sentence with a link, and a labelled link to a plain word', () => {
    const inner =
      '<p>See also: <a href="https://news.example/pears">pears</a></p>' +
      '<p>Read more: the orchard keeps <a href="https://news.example/diary">a diary of the harvest</a> online.</p>';
    const markdown = markdownOf(inner);
    expect(markdown).toContain('See also: [pears]');
    expect(markdown).toContain('a diary of the harvest');
  });
});

describe('widget prompts, advert labels and the site speaking of itself', () => {
  it('drops feedback and share prompts and an advert label heading its own line', () => {
    const after =
      '<div><strong>Möchten Sie den Artikel teilen?</strong></div><span><hr><strong>War der Artikel nützlich?</strong><br>(12 Stimmen)</span>' +
      '<b>ANZEIGE - Heute mal ausgehen? Wie wäre es mit:</b><br><div><a href="https://shop.example"><img src="/ad.jpg" alt="Hofladen"></a></div>';
    const markdown = markdownOf('', after);
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toMatch(/teilen\?|nützlich\?|ANZEIGE/);
  });

  it('drops pitches, disclaimers and consent placeholders as whole paragraphs', () => {
    const after = [
      '<p><strong>Follow The Orchard Post on Twitter and Instagram @orchardpost and on Facebook. Send us a message on WhatsApp or email us at <a href="mailto:desk@orchard.example">desk@orchard.example</a></strong></p>',
      '<p><strong>Gefällt dir unser Gartenmagazin? Wir haben entschieden, keine Bezahlschranke einzuführen, denn wir möchten möglichst viele Menschen erreichen.</strong></p>',
      '<p>Kennt ihr schon unseren Sortenfinder? Ab sofort findet ihr mit unserem <a href="/finder">Sortenfinder</a> alte Apfelsorten auf einen Klick.</p>',
      '<p>First-time subscribers also receive a <strong>jar of honey</strong> from our own hives!</p>',
      '<p>Hacemos periodismo desde hace 80 años. Y ahora el periodismo es fundamental para la región.</p>',
      '<p><b>Orchard Post</b> is not responsible for the opinions, statements or media content presented by contributors.</p>',
      '<p><b>Always supplied with Orchard Power</b></p><p>Power or gas, we supply you with cheap energy. If you are not yet a customer, switching to us takes five minutes.</p>',
      '<div><h2>Twitter freischalten</h2><div>Wir respektieren deine Privatsphäre und stellen deshalb ohne dein Einverständnis keine Verbindung zu Twitter her.</div></div>',
    ].join('');
    const markdown = markdownOf('', after);
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toMatch(
      /Follow The Orchard|Gartenmagazin|Sortenfinder|subscribers|periodismo|not responsible|Orchard Power|customer|Privatsphäre|freischalten/,
    );
  });

  it('recognises the same pitches in other languages, and not prose on the same subjects', () => {
    for (const s of [
      'Síguenos en Instagram y recibe las noticias del valle.',
      'Suivez-nous sur Facebook pour les dates de la récolte.',
      'Folgen Sie uns auf Instagram für mehr Bilder aus dem Obstgarten.',
      'Do you like our garden magazine? We keep it free for everyone.',
      'If you are already a subscriber, you can log in for immediate access.',
      'El diario no se hace responsable de las opiniones de sus lectores.',
      'Was this article helpful?',
      'Permalink https://orchard.example/p/12',
      'Bitte teilen Sie uns Ihre Erfahrungen mit, wenn Sie unseren Apfelsaft schon probiert haben.',
      'Empfehlungen aus dem Obstgarten-Shop',
      'Besuchen Sie die Webseite, um dieses Element zu sehen.',
      'My blog is full of orchard tips, grafting guides and recipes for every season.',
      "I'm Anna and I'm so glad you've stopped by! I write about old apple varieties.",
      'Advertisement: apples from the farm shop',
    ])
      expect(isPromoText(s), s).toBe(true);
    for (const s of [
      'Folgen Sie dem Weg auf der Karte bis zum alten Obstgarten.',
      'We like our magazine of old varieties, kept in the school library since 1970.',
      'The mayor is not responsible for the orchard, which belongs to the cooperative.',
      'The permalink of each tree record is printed on its label.',
      'Die Kinder teilen ihre Erfahrungen aus dem Obstgarten in der Schule.',
      'Products from the farm shop sold out by noon.',
      "I'm told the orchard blog is full of grafting tips.",
      'If you are not yet a customer of the bank, the loan for new trees needs a guarantor.',
    ])
      expect(isPromoText(s), s).toBe(false);
  });

  it('keeps prose that follows someone on Twitter or talks of subscribers', () => {
    const inner =
      '<p>Follow these steps shared on Twitter to prune a young apple tree in its first winter.</p>' +
      '<p>The cooperative has 200 members; new members receive a share of the harvest from their second year, and the old members plant a tree for each of them.</p>';
    const markdown = markdownOf(inner);
    expect(markdown).toContain('Follow these steps shared on Twitter');
    expect(markdown).toContain('new members receive a share');
  });
});

describe("the site's description of itself after the article", () => {
  it('drops a closing section about the portal named by its domain, and keeps an about-us page', () => {
    const after =
      '<h2>Über das Obstportal www.obstgarten.de</h2><p>Seit 2001 veröffentlicht das Portal Nachrichten rund um den Obstbau aus der ganzen Region.</p><p>Die Nutzung der Texte ist für Medien frei.</p>';
    const markdown = markdownOf('', after);
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toMatch(/Obstportal|Seit 2001|Nutzung der Texte/);
    const about = `<html><head><title>Über uns</title></head><body><div><h1>Obstgarten GmbH</h1><p>${PROSE[0]}</p><h2>Über uns</h2>${PROSE.slice(1)
      .map((p) => `<p>${p}</p>`)
      .join('')}</div></body></html>`;
    expect(htmlToMarkdown(about, 'Über uns').markdown).toContain(PROSE[3]);
  });

  it("drops a section of the site's other audio and video on the subject", () => {
    const after =
      '<h4>Audios et vidéos sur le sujet</h4><div><a href="https://orchard.example/media/1"><h2>Le verger de la colline</h2></a></div><ul><li>Date 23.05.2011</li><li>Imprimer cette page</li></ul>';
    const markdown = markdownOf('', after);
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toMatch(/Audios|verger|Imprimer/);
  });
});
