// WordPress widgets (sidebar boxes) inside the block Readability keeps are dropped by their class; content
// blocks of page builders, whose classes also contain "widget", are not.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { ORCHARD_PROSE as PROSE } from '../support/markdown-pages.js';

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
