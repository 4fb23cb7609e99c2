// Escapes that protect nothing are undone: a lone asterisk in a paragraph (a gender star) and a bracketed
// footnote mark that no link target follows read as themselves; escapes that matter stay.
import { describe, expect, it } from 'vitest';
import { relaxEscapes } from '../../src/extract/markdown-escapes.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';

describe('relaxEscapes', () => {
  it('unescapes a lone asterisk in a paragraph', () => {
    expect(relaxEscapes('All Leser\\*innen of the orchard news are welcome.')).toBe('All Leser*innen of the orchard news are welcome.');
  });

  it('keeps escaped asterisks that could pair into emphasis', () => {
    const md = 'Leser\\*innen and Gärtner\\*innen met in the orchard.';
    expect(relaxEscapes(md)).toBe(md);
  });

  it('keeps an escaped asterisk beside emphasis or at the start of a line before a space', () => {
    expect(relaxEscapes('**Pears** and Leser\\*innen')).toBe('**Pears** and Leser\\*innen');
    expect(relaxEscapes('\\* not a list item')).toBe('\\* not a list item');
  });

  it('unescapes a bracketed footnote mark but not text a link target follows', () => {
    expect(relaxEscapes('\\[1\\] The orchard was planted in 1902.')).toBe('[1] The orchard was planted in 1902.');
    expect(relaxEscapes('\\[1\\]: a definition')).toBe('\\[1\\]: a definition');
    expect(relaxEscapes('\\[see\\](not a link)')).toBe('\\[see\\](not a link)');
  });

  it('leaves fenced code alone', () => {
    const md = '```\nx = a \\* b\n\ny = \\[1\\]\n```';
    expect(relaxEscapes(md)).toBe(md);
  });

  it('is applied to the converted page', () => {
    const { markdown } = htmlToMarkdown(
      '<main><p>All Leser*innen of the orchard news are welcome to the harvest walk on Saturday morning, rain or shine.</p><p>[1] The orchard was planted in 1902 by the village school.</p></main>',
      'Harvest walk',
    );
    expect(markdown).toContain('Leser*innen');
    expect(markdown).toContain('[1] The orchard');
  });

  it('keeps the brackets of a task checkbox escaped', () => {
    expect(relaxEscapes('- \\[x\\] pick the apples')).toBe('- \\[x\\] pick the apples');
    expect(relaxEscapes('- \\[ \\] press the cider')).toBe('- \\[ \\] press the cider');
  });
});
