// Teaser cards of other articles inside the article container, on small pages written for these tests.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

function page(inner: string): string {
  return `<html><head><title>The hill orchard</title></head><body><article><h1>The hill orchard</h1>${PROSE.map((p) => `<p>${p}</p>`).join('')}${inner}</article></body></html>`;
}

describe('teaser cards inside the article', () => {
  it('drops a run of linked headings with short blurbs after the article', () => {
    const cards =
      '<h2><a href="/pears">Pears in winter</a></h2><p><a href="/pears"><img src="/p.jpg" alt=""></a></p><p>How the pear trees survive the frost.</p>' +
      '<h2><a href="/cherries">Cherry picking day</a></h2><p>The school picks cherries each June.</p>';
    const { markdown } = htmlToMarkdown(page(cards), 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toContain('Pears in winter');
    expect(markdown).not.toContain('The school picks cherries');
  });

  it('drops wrapped cards, each a box with one linked heading', () => {
    const cards = ['Pears in winter', 'Cherry picking day', 'Plums at last']
      .map((t, i) => `<div class="card"><h3><a href="/s${i}">${t}</a></h3><p>A short blurb about ${t.toLowerCase()}.</p></div>`)
      .join('');
    const { markdown } = htmlToMarkdown(page(`<div>${cards}</div>`), 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toContain('Plums at last');
  });

  it('keeps a single linked section title, and the page title linked to itself', () => {
    const inner = `<h2><a href="/history">History of the cooperative</a></h2><p>${PROSE[0]} The founders met in the school.</p>`;
    const { markdown } = htmlToMarkdown(page(inner), 'The hill orchard');
    expect(markdown).toContain('History of the cooperative');
    const blog = `<html><head><title>Doing nothing | A blog</title></head><body><div><h2><a href="/doing-nothing">Doing nothing</a></h2><p>A short post of one line.</p><h2><a href="/other">Another post</a></h2><p>Its short teaser.</p><p>${PROSE.join(' ')}</p></div></body></html>`;
    expect(htmlToMarkdown(blog, 'Doing nothing').markdown).toContain('A short post of one line.');
  });

  it('counts a kicker heading and a title heading as one card', () => {
    const item = (k: string, t: string): string =>
      `<div><h6><a href="/firm/${k}">${k} GmbH</a></h6><h2><a href="/pm/${k}">${t}</a></h2><p>${t}: a short release. The cooperative sells its apples, pears and cider in the new shop by the gate from May on.</p></div>`;
    const { markdown } = htmlToMarkdown(page(item('Obst', 'Orchard opens shop')), 'The hill orchard');
    expect(markdown).toContain('Orchard opens shop: a short release.');
  });

  it('drops boxes of a linked title, a blurb and a "read more" link to the same page, and keeps prose links', () => {
    const card = (slug: string, title: string): string =>
      `<div class="col"><div class="box"><p class="title"><a href="https://news.example/${slug}">${title}</a></p><p>${title}: sweet and juicy, they go into desserts, salads and savoury dishes, and here is how to keep them fresh.</p><a href="https://news.example/${slug}">Read on</a></div></div>`;
    const { markdown } = htmlToMarkdown(
      page(`<div class="row">${card('pears', 'Pears in the winter frost')}${card('plums', 'Plums at last this year')}</div>`),
      'The hill orchard',
    );
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toContain('sweet and juicy');
    const notes = ['pears', 'plums']
      .map((s) => `<div><p>The <a href="https://news.example/${s}">${s} of the valley</a> are sold at the market by the school children. ${PROSE[1]}</p></div>`)
      .join('');
    expect(htmlToMarkdown(page(notes), 'The hill orchard').markdown).toContain('are sold at the market');
  });

  it('drops a lone wrapped card whose picture or "more" link leads to the page its heading names', () => {
    const card =
      '<div class="box"><div class="pic"><a href="https://news.example/frost"><img src="/frost.jpg" alt="Frost on the blossoms"></a></div>' +
      '<h2><a href="https://news.example/frost">What to know about late frost</a></h2><p>Late frost can cost a whole harvest, and growers in the valley have seen it twice in ten years. Here are the answers to the questions growers ask most, from smudge pots to sprinklers. <a href="https://news.example/frost">more</a></p></div>';
    const [first, second, ...rest] = PROSE.map((p) => `<p>${p}</p>`);
    const html = `<html><head><title>The hill orchard</title></head><body><article><h1>The hill orchard</h1>${first}${second}${card}${rest.join('')}</article></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'The hill orchard');
    expect(markdown).toContain(PROSE[3]);
    expect(markdown).not.toContain('late frost');
    expect(markdown).not.toContain('Late frost can cost');
  });
});
