// Pages built of boxes of one kind (a recipe's header, ingredients and method): Readability keeps only the
// box with the most prose; the sibling boxes of the same kind are put back, link lists are not.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/markdown.js';

const method = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>Step ${i + 1}: stir the custard slowly over a low heat, then let it cool, covered with film so that no skin forms on the surface, before it is spread over the base.</p>`,
).join('');

const recipe = (extraBox: string) => `<!doctype html><html><head><title>Mandarin cake</title></head><body>
<header><nav><a href="/">Home</a> <a href="/recipes">Recipes</a></nav></header>
<main class="container">
  <article class="box box-header"><h1>Mandarin cake</h1><p>The creamiest cake of the summer.</p></article>
  <article class="box box-ingredients"><h2>Ingredients</h2><table><tr><td>125 g</td><td>flour</td></tr><tr><td>65 g</td><td>sugar</td></tr><tr><td>2 cans</td><td>mandarins</td></tr></table></article>
  <article class="box box-method"><h2>Method</h2>${method}</article>
  ${extraBox}
</main>
<aside class="box-promo"><p>Try our app for more cakes.</p></aside>
</body></html>`;

describe('htmlToMarkdown sibling boxes', () => {
  it('puts back the header and ingredient boxes beside the method Readability picked, in page order', () => {
    const { markdown } = htmlToMarkdown(recipe(''), 'Mandarin cake');
    expect(markdown).toContain('Step 6: stir the custard');
    expect(markdown).toContain('The creamiest cake of the summer.');
    expect(markdown).toMatch(/\| 65 g \| sugar \|/);
    expect(markdown.indexOf('sugar')).toBeLessThan(markdown.indexOf('Step 1:'));
    expect(markdown).not.toContain('Try our app');
  });

  it('leaves out a sibling box that is a list of links', () => {
    const links = Array.from({ length: 8 }, (_, i) => `<li><a href="/r/${i}">Another cake number ${i}</a></li>`).join('');
    const { markdown } = htmlToMarkdown(recipe(`<article class="box box-more"><ul>${links}</ul></article>`), 'Mandarin cake');
    expect(markdown).toContain('Step 6: stir the custard');
    expect(markdown).not.toContain('Another cake number');
  });
});
