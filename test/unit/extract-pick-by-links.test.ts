// pick-by-links: a section front whose teaser cards are its content keeps them (Readability's pick, pruned
// without the link rules), while an article with one title still loses the cards around it. Small pages
// written for this test.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/markdown.js';

const TOPICS = ['river', 'orchard', 'harbour', 'bridge', 'market', 'library', 'school', 'railway', 'mill'];

/** A card: a headline linked to its story and a blurb of prose under it. */
function card(topic: string): string {
  return (
    `<li><h3><a href="https://news.example/${topic}">What changed at the ${topic} this winter</a></h3>` +
    `<p>The town council met the people who work at the ${topic} and wrote down what they need before the spring season starts again.</p></li>`
  );
}

/** The front's lead story: one card, its headline linked, with a longer blurb (a single card is no run of teasers). */
const FEATURED =
  '<section><h3><a href="https://news.example/flood">The flood, a week later</a></h3>' +
  '<p>A week after the river left the lower streets, most shops on the quay have opened again, and the council has begun to count what the flood cost the town.</p>' +
  '<p>Engineers say the bridge is safe, but the market hall will stay closed until its floor has dried, which may take until the end of the month.</p></section>';

/**
 * A section front: the lead story, then sections of cards, three to a section (each run of cards is less than
 * half the page, so the teaser rule takes each); `title` makes it an article titled by one H1 instead.
 */
function page(title?: string): string {
  const sections = [0, 1, 2]
    .map(
      (k) =>
        `<section><h2>Section ${k + 1}</h2><ol>${TOPICS.slice(3 * k, 3 * k + 3)
          .map(card)
          .join('')}</ol></section>`,
    )
    .join('');
  const article = title
    ? `<h1>${title}</h1><p>The flood of the river in March reached the lower streets of the town and the market hall, and the council closed the bridge for two days while engineers checked its piers.</p>` +
      `<p>Shop owners along the quay said the water rose faster than in any year they remember, and several asked the council for help with the cost of cleaning their cellars.</p>`
    : FEATURED;
  return `<html><head><title>Town news</title></head><body><header><a href="https://news.example/">Town news</a></header><main>${article}${sections}</main></body></html>`;
}

describe('pick-by-links', () => {
  it('keeps the teaser cards of a section front, saying the result is Readability’s pick', () => {
    const result = htmlToMarkdown(page(), 'Town news', 'main', { debug: true });
    for (const topic of TOPICS) expect(result.markdown).toContain(`work at the ${topic}`);
    expect(result.markdown).toContain('the council has begun to count');
    expect(result.source).toBe('readability');
    expect(result.trace).toContainEqual(expect.objectContaining({ rule: 'pick-by-links', chose: 'pick pruned without link rules' }));
  });

  it('loses most of the cards when switched off', () => {
    const { markdown, source } = htmlToMarkdown(page(), 'Town news', 'main', { off: ['pick-by-links'] });
    expect(markdown).toContain('the council has begun to count');
    expect(TOPICS.filter((topic) => markdown.includes(`work at the ${topic}`)).length).toBeLessThan(TOPICS.length / 2);
    expect(source).toBe('article');
  });

  it('leaves the cards out of a page titled by one H1: they are other stories beside the article', () => {
    const result = htmlToMarkdown(page('Flood closes the bridge'), 'Flood closes the bridge', 'main', { debug: true });
    expect(result.markdown).toContain('engineers checked its piers');
    expect(result.trace?.some((t) => t.rule === 'pick-by-links')).toBe(false);
  });
});
