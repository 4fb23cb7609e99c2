// WordPress widgets (sidebar boxes) inside the block Readability keeps are dropped by their class; content
// blocks of page builders, whose classes also contain "widget", are not.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/browser/markdown.js';

const PROSE = [
  'The orchard on the hill was planted in 1952 by the first cooperative of the village, and it still gives apples every autumn.',
  'Volunteers prune the trees in February, when the sap is low and the branches show their shape without leaves.',
  'Last year the harvest filled four hundred crates, most of which went to the school kitchens of the district.',
  'This spring the cooperative will graft old local varieties onto young rootstock so that they are not lost.',
];

describe('htmlToMarkdown widgets', () => {
  it('drops WordPress text widgets that sit beside the post', () => {
    const widget =
      '<div id="text-5" class="widget widget_text"><div class="textwidget"><p>Welcome to our little blog about gardens, recipes and the joys of the countryside, enjoy browsing!</p></div></div>';
    const html = `<html><body><div id="main"><div class="post">${PROSE.map((p) => `<p>${p}</p>`).join('')}</div>${widget}</div></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'The hill orchard');
    for (const p of PROSE) expect(markdown).toContain(p);
    expect(markdown).not.toContain('enjoy browsing');
  });

  it('keeps page-builder blocks named "…-widget-…"', () => {
    const html = `<html><body><div class="elementor-section">${PROSE.map(
      (p) => `<div class="elementor-element elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container"><p>${p}</p></div></div>`,
    ).join('')}</div></body></html>`;
    const { markdown } = htmlToMarkdown(html, 'The hill orchard');
    for (const p of PROSE) expect(markdown).toContain(p);
  });
});
