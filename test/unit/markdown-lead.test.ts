// The lead paragraph (standfirst) in an article's header, which Readability leaves out, is found and given
// as the excerpt (the page declares no description), never put in front of the body: also under a title
// that is an H2 naming the page or a plain block holding the title, across a short section label link or a
// run of short lines, when it opens with the body's first sentence, and when it opens the page.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/markdown.js';

const BODY = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Paragraph ${i + 1}: the cold front reached the coast in the early morning, bringing rain, thunderstorms and snow above eight hundred metres, according to the national weather service.</p>`,
).join('');
const LEAD = 'Rain, storms and snow are forecast for the central regions today, while the north stays dry.';

const page = (header: string) => `<!doctype html><html><head><title>Polar front reaches the centre - Weather Daily</title></head><body>
<div class="logo"><a href="/">Weather Daily</a></div>
<div class="wrapper">
  <header class="entry-header">${header}</header>
  <div class="related-box"><a href="/a">Floods in the valley last spring and what the towns learned from them</a></div>
  <div class="entry-body">${BODY}</div>
</div></body></html>`;

describe('htmlToMarkdown lead paragraph', () => {
  it('gives as the excerpt the lead under an H2 that names the page', () => {
    const { markdown, excerpt } = htmlToMarkdown(
      page(`<h2>Polar front reaches the centre</h2><p class="subtitle">${LEAD}</p>`),
      'Polar front reaches the centre - Weather Daily',
    );
    expect(excerpt).toContain(LEAD);
    expect(markdown).not.toContain(LEAD);
  });

  it('gives as the excerpt the lead across a short section label link', () => {
    const { markdown, excerpt } = htmlToMarkdown(
      page(`<h1>Polar front reaches the centre</h1><p class="subtitle">${LEAD}</p><h5 class="kicker"><a href="/weather">Weather</a></h5>`),
      'Polar front reaches the centre - Weather Daily',
    );
    expect(excerpt).toContain(LEAD);
    expect(markdown).not.toContain(LEAD);
  });

  it('gives as the excerpt the lead under a headline set in a plain block', () => {
    const { markdown, excerpt } = htmlToMarkdown(
      page(`<div class="headline">Polar front reaches the centre</div><p class="subtitle">${LEAD}</p>`),
      'Polar front reaches the centre - Weather Daily',
    );
    expect(excerpt).toContain(LEAD);
    expect(markdown).not.toContain(LEAD);
  });

  it('gives as the excerpt a lead that opens with the first sentence of the body', () => {
    const first =
      'Paragraph 1: the cold front reached the coast in the early morning, bringing rain, thunderstorms and snow above eight hundred metres, according to the national weather service.';
    const more =
      'Forecasters expect the north to stay dry and mild until the weekend, when the front moves on. Farmers in the valleys are asked to bring their herds down from the high pastures before Friday night.';
    const { markdown, excerpt } = htmlToMarkdown(
      page(`<h1>Polar front reaches the centre</h1><p class="subtitle">${first} ${more}</p>`),
      'Polar front reaches the centre - Weather Daily',
    );
    expect(excerpt).toContain(more);
    expect(markdown).not.toContain(more);
  });

  it('reaches the lead (excerpt) across a run of short lines', () => {
    const lines = ['Published 4 May', 'Updated 5 May', 'Listen to this article', '4 min', 'Read by Ann Lee', 'Audio', 'Your browser cannot play audio']
      .map((l) => `<div>${l}</div>`)
      .join('');
    const { markdown, excerpt } = htmlToMarkdown(
      page(`<h1>Polar front reaches the centre</h1><p class="subtitle">${LEAD}</p>${lines}`),
      'Polar front reaches the centre - Weather Daily',
    );
    expect(excerpt).toContain(LEAD);
    expect(markdown).not.toContain(LEAD);
  });

  it('gives as the excerpt a lead that opens the page when no title precedes it', () => {
    const { markdown, excerpt } = htmlToMarkdown(page(`<p class="subtitle">${LEAD}</p>`), 'Polar front reaches the centre - Weather Daily');
    expect(excerpt).toContain(LEAD);
    expect(markdown).not.toContain(LEAD);
  });

  it('does not take a paragraph under a heading that does not name the page', () => {
    const { markdown, excerpt } = htmlToMarkdown(
      page(`<h2>Our partners</h2><p class="subtitle">${LEAD}</p>`),
      'Polar front reaches the centre - Weather Daily',
    );
    expect(markdown).not.toContain(LEAD);
    expect(excerpt).not.toContain(LEAD);
  });
});
