// The main-content rules of browser.markdown on HTML strings (linkedom, no browser): one test per known
// defect of the old extractor and per structure item the Markdown must keep.
import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { FORM_WRAPPED_HTML, NEWS_WITH_COMMENTS_HTML, SKIP_LINK_HTML, STRUCTURE_HTML } from '../support/markdown-pages.js';

describe('htmlToMarkdown main content', () => {
  it('(a) keeps a short article and drops the comment thread ten times its length', () => {
    const { markdown, source } = htmlToMarkdown(NEWS_WITH_COMMENTS_HTML, 'Bridge reopens after repairs');
    expect(source).toBe('article');
    expect(markdown).toContain('reopened to traffic on Monday morning');
    expect(markdown).toContain('within its budget of 4.2 million euros');
    expect(markdown).not.toContain('Comment 3 on the bridge');
    expect(markdown).not.toContain('42 comments');
    expect(markdown.length).toBeLessThan(800);
  });

  it('(b) keeps content wrapped in a page-wide form but drops the small search form', () => {
    const { markdown } = htmlToMarkdown(FORM_WRAPPED_HTML, 'Opening hours of the library');
    expect(markdown).toContain('open from nine in the morning');
    expect(markdown).toContain('through the slot beside the main entrance');
    expect(markdown).not.toContain('Search');
  });

  it('(c) drops skip links even when the page script made them absolute', () => {
    const absolute = SKIP_LINK_HTML.replace('href="#main"', 'href="https://garden.example/apples#main"').replace(
      'href="#nav"',
      'href="https://garden.example/apples#nav"',
    );
    for (const content of ['main', 'full'] as const) {
      const { markdown } = htmlToMarkdown(absolute, 'Pruning apple trees', content);
      expect(markdown).not.toMatch(/skip/i);
    }
  });

  it('(d) puts no title in front of the body: the title is a field', () => {
    const { markdown, title } = htmlToMarkdown(SKIP_LINK_HTML, 'Pruning apple trees');
    expect(title).toBe('Pruning apple trees');
    expect((markdown.match(/Pruning apple trees/g) ?? []).length).toBeLessThanOrEqual(1);
    expect(markdown).not.toMatch(/^# Pruning apple trees\n\n# /);
    expect(markdown).toContain('Apple trees are pruned');
  });

  it('does not prepend the title when its headline follows a picture and a kicker', () => {
    const prose = 'Volunteers prune the trees in February, when the sap is low and the branches show their shape without leaves. '.repeat(3);
    const page = `<body><main><img src="https://orchard.example/${'hill-'.repeat(40)}.jpg" alt="The hill"><p>Village life</p><h3>The hill orchard turns seventy</h3><p>${prose}</p><p>${prose}</p></main></body>`;
    const { markdown } = htmlToMarkdown(page, 'The hill orchard turns seventy | Orchard News');
    expect(markdown.match(/The hill orchard turns seventy/g)).toHaveLength(1);
    expect(markdown).not.toContain('Orchard News');
  });

  it('gives the body alone, whatever the title, and the title as it was as a field', () => {
    const prose = 'Volunteers prune the trees in February, when the sap is low and the branches show their shape without leaves. '.repeat(3);
    const page = (title: string) => `<html><head><title>${title}</title></head><body><main><p>${prose}</p><p>${prose}</p></main></body></html>`;
    const cut = htmlToMarkdown(page('Pruning the old apple trees | Orchard News'), 'Pruning the old apple trees | Orchard News');
    expect(cut.markdown).toMatch(/^Volunteers prune/);
    expect(cut.title).toBe('Pruning the old apple trees | Orchard News');
    const kept = htmlToMarkdown(page('Orchard News: Pruning the old apple trees'), 'Orchard News: Pruning the old apple trees');
    expect(kept.markdown).toMatch(/^Volunteers prune/);
    expect(kept.title).toBe('Orchard News: Pruning the old apple trees');
  });

  it('does not make the title a heading when the content has none', () => {
    const { markdown, title } = htmlToMarkdown('<body><p>Just a paragraph of text.</p></body>', 'A title');
    expect(markdown).toBe('Just a paragraph of text.\n');
    expect(title).toBe('A title');
  });

  it('keeps tables, fenced code with its language, nested lists, quotes, captions and meaningful images', () => {
    const html = STRUCTURE_HTML.replaceAll('src="/img/', 'src="https://docs.example/img/');
    const { markdown, source } = htmlToMarkdown(html, 'Release notes 2.0');
    expect(source).toBe('article');
    expect(markdown).not.toMatch(/^# Release notes 2\.0\n/);
    expect(markdown).toContain('## Changes');
    expect(markdown).toContain('| Area | Before | After |\n| --- | --- | --- |\n| Config | INI | TOML |');
    expect(markdown).toContain('```toml\n[server]\nport = 8080\n```');
    expect(markdown).toMatch(/1\. Convert the configuration:\n\s+- rename keys\n\s+- quote strings\n2\. Restart the service\./);
    expect(markdown).toContain('> Streaming was the most requested feature of the year.');
    expect(markdown).toContain('![Streaming pipeline diagram](https://docs.example/img/diagram.png)');
    expect(markdown).toContain('How a streamed response flows through the service.');
    expect(markdown).not.toContain('data:image');
    expect(markdown).not.toContain('Docs home');
  });

  it("content 'full' converts the whole page, chrome included", () => {
    const { markdown, source } = htmlToMarkdown(NEWS_WITH_COMMENTS_HTML, 'Bridge reopens after repairs', 'full');
    expect(source).toBe('page');
    expect(markdown).toContain('Comment 3 on the bridge');
    expect(markdown).toContain('[Sport]');
    expect(markdown).toContain('reopened to traffic on Monday morning');
  });

  it('keeps every card of a listing (no single article to pick) without the chrome', () => {
    const cards = Array.from({ length: 8 }, (_, i) => `<div class="card"><h3>Plant ${i}</h3><p>Hardy perennial number ${i}, full sun.</p></div>`).join('');
    const { markdown } = htmlToMarkdown(
      `<body><nav><a href="/">Home</a></nav><div class="cards">${cards}</div><footer>Shop footer</footer></body>`,
      'Catalogue',
    );
    for (let i = 0; i < 8; i++) expect(markdown).toContain(`### Plant ${i}`);
    expect(markdown).not.toContain('Shop footer');
  });

  it('drops soft hyphens and zero-width break hints, which split words for a reader that searches', () => {
    const { markdown } = htmlToMarkdown('<body><p>Wäh\u00adrend Sie schlen\u00addern, zero\u200bwidth and\u2060joined.</p></body>', 'Markt');
    expect(markdown).toContain('Während Sie schlendern, zerowidth andjoined.');
  });

  it('converts a layout table holding a table without rows (the inner one is settled before it is copied)', () => {
    const html =
      '<body><table><tr><td><table><tbody></tbody></table><p>Opening hours: nine to five.</p></td><td><table><tr><td>Mon</td><td>closed</td></tr></table></td></tr></table></body>';
    for (const content of ['main', 'full'] as const) {
      const { markdown } = htmlToMarkdown(html, 'Hours', content);
      expect(markdown).toContain('Opening hours: nine to five.');
      expect(markdown).toContain('| Mon | closed |');
    }
  });

  it('falls back to the pruned page when Readability finds nothing', () => {
    const { markdown, source } = htmlToMarkdown('<body><nav><a href="/">Home</a></nav><p>Closed today.</p><footer>Shop footer</footer></body>', 'Shop');
    expect(source).toBe('page');
    expect(markdown).toBe('Closed today.\n');
  });
});
