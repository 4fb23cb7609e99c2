// Windows on a bounded result: every part is cut where the next one starts, so reading from offset 0 by
// next_offset until it is null gives back the whole text, for each of the three shapes.
import { describe, expect, it } from 'vitest';
import { applyWindow, type BoundedSpec } from '../../src/registry/bounded-result.js';
import { markdownChunks } from '../../src/registry/markdown-chunks.js';

type Part = Record<string, unknown> & { next_offset: number | null; total_chars: number; truncated: boolean; approx_tokens: number };

function readAll(spec: BoundedSpec, result: Record<string, unknown>, maxChars: number, chunks = false): Part[] {
  const parts: Part[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const part = applyWindow(spec, result, { offset, maxChars, chunks }) as Part;
    parts.push(part);
    if (part.next_offset !== null) expect(part.next_offset).toBeGreaterThan(offset);
    offset = part.next_offset;
  }
  return parts;
}

const article = Array.from({ length: 40 }, (_, i) => `## Section ${i}\n\n${'Word '.repeat(60 + i)}\n\n### Detail ${i}\n\nMore text 😀 here.\n`).join('\n');

describe('text results', () => {
  it('returns the whole text across parts, each within max_chars, never splitting a surrogate pair', () => {
    const spec: BoundedSpec = { kind: 'text', field: 'markdown' };
    const parts = readAll(spec, { markdown: article, title: 't' }, 1000);
    expect(parts.length).toBeGreaterThan(5);
    expect(parts.map((p) => p.markdown).join('')).toBe(article);
    for (const p of parts) {
      expect((p.markdown as string).length).toBeLessThanOrEqual(1000);
      expect(p).toMatchObject({ total_chars: article.length, truncated: true, title: 't' });
      expect(p.approx_tokens).toBe(Math.ceil((p.markdown as string).length / 4));
      expect(/^[\udc00-\udfff]/.test(p.markdown as string)).toBe(false);
    }
    expect(parts.at(-1)!.next_offset).toBeNull();
  });

  it('says a short text is whole', () => {
    const part = applyWindow({ kind: 'text', field: 'html' }, { html: '<p>hi</p>' }, { offset: 0, maxChars: 1000, chunks: false });
    expect(part).toMatchObject({ html: '<p>hi</p>', total_chars: 9, truncated: false, next_offset: null, approx_tokens: 3 });
  });

  it('lists the Markdown sections of each part with their heading paths, parts ending at a heading', () => {
    const spec: BoundedSpec = { kind: 'text', field: 'markdown', chunks: true };
    const parts = readAll(spec, { markdown: article }, 2000, true);
    for (const p of parts.slice(0, -1)) expect(article.slice(p.next_offset!, p.next_offset! + 2)).toBe('##');
    const chunks = parts.flatMap((p) => p.chunks as { heading_path: string[]; start: number; end: number }[]);
    expect(chunks.find((c) => c.heading_path.join(' > ') === 'Section 3 > Detail 3')).toBeDefined();
    for (const c of chunks) expect(article.slice(c.start, c.end).startsWith('#')).toBe(true);
  });
});

describe('markdownChunks', () => {
  it('ignores # lines inside fenced code and nests by level', () => {
    const md = 'Intro\n# A\ntext\n```\n# not a heading\n```\n## B\nx\n# C\n';
    expect(markdownChunks(md).map((c) => [c.heading_path, md.slice(c.start, c.end)])).toEqual([
      [[], 'Intro\n'],
      [['A'], '# A\ntext\n```\n# not a heading\n```\n'],
      [['A', 'B'], '## B\nx\n'],
      [['C'], '# C\n'],
    ]);
  });
});

describe('item results', () => {
  it('pages through links without splitting one, count saying how many came back', () => {
    const links = Array.from({ length: 300 }, (_, i) => ({ url: `https://example.com/page/${i}`, text: `Link ${i}` }));
    const parts = readAll({ kind: 'items', field: 'links', countField: 'count' }, { count: 300, links, final_url: 'u' }, 2000);
    expect(parts.flatMap((p) => p.links as unknown[])).toEqual(links);
    for (const p of parts) {
      expect(p.count).toBe((p.links as unknown[]).length);
      expect(JSON.stringify(p.links).length).toBeLessThanOrEqual(2000 + 2);
    }
  });
});

describe('value results (browser.scrape)', () => {
  it('cuts the strings of every field in order and leaves out fields outside the part', () => {
    const result = { title: 'T'.repeat(50), body: 'B'.repeat(2500), items: ['x'.repeat(700), 'y'.repeat(700)], none: null, final_url: 'u', status_code: 200 };
    const parts = readAll({ kind: 'values', keep: ['final_url', 'status_code', 'cached'] }, result, 1000);
    const joined = (key: string) =>
      parts
        .filter((p) => key in p)
        .map((p) => p[key])
        .flat()
        .join('');
    expect(joined('title')).toBe(result.title);
    expect(joined('body')).toBe(result.body);
    expect(joined('items')).toBe(result.items.join(''));
    expect(parts.filter((p) => 'none' in p)).toHaveLength(1);
    for (const p of parts) expect(p).toMatchObject({ final_url: 'u', status_code: 200, total_chars: 50 + 2500 + 1400 });
    expect('body' in parts[0]! && !('items' in parts[0]!)).toBe(true);
  });
});
