// The PDF layout logic on hand-made pages (positioned runs, as pdf.js reports them): reading order across
// columns, tables, running lines, paragraphs and headings; plus page ranges and content sniffing.
import { describe, expect, it } from 'vitest';
import { selectPages } from '../../src/extract/document/page-range.js';
import { leafBlocks } from '../../src/extract/document/pdf/paragraphs.js';
import { blocksToMarkdown } from '../../src/extract/document/pdf/pdf-markdown.js';
import { readingOrder } from '../../src/extract/document/pdf/reading-order.js';
import { runningLines } from '../../src/extract/document/pdf/running-lines.js';
import { splitSegment, toSegments } from '../../src/extract/document/pdf/segments.js';
import { findTables } from '../../src/extract/document/pdf/tables.js';
import type { TextRun } from '../../src/extract/document/pdf/text-runs.js';
import { sniffDocument } from '../../src/extract/document/sniff.js';

/** A run whose width is 5.5 pt per character at size 10 (roughly a proportional face). */
function run(text: string, x: number, y: number, size = 10, bold = false): TextRun {
  return { text, x, y, width: text.length * size * 0.55, size, bold };
}

/** Lines of a column: `texts` from top to bottom at 12 pt pitch. */
function column(texts: string[], x: number, top: number): TextRun[] {
  return texts.map((t, i) => run(t, x, top + i * 12));
}

function pageMarkdown(runs: TextRun[]): string {
  const segments = toSegments(runs);
  const blocks = readingOrder(segments, 10, splitSegment).flatMap((leaf) => leafBlocks(leaf));
  return blocksToMarkdown([{ number: 1, blocks }], { pageBreaks: false }).markdown;
}

describe('PDF reading order', () => {
  it('reads two columns left then right even when the right column is drawn first', () => {
    const left = column(['alpha one two three four five six', 'alpha seven eight nine ten eleven', 'alpha twelve thirteen fourteen.'], 50, 100);
    const right = column(['beta one two three four five six', 'beta seven eight nine ten eleven', 'beta twelve thirteen fourteen.'], 300, 100);
    const md = pageMarkdown([...right, ...left]);
    expect(md.indexOf('alpha one')).toBeLessThan(md.indexOf('alpha twelve'));
    expect(md.indexOf('alpha twelve')).toBeLessThan(md.indexOf('beta one'));
    expect(md.indexOf('beta one')).toBeLessThan(md.indexOf('beta twelve'));
  });

  it('reads a full-width title before the columns and a three-column page column by column', () => {
    const title = run('A Title That Spans The Whole Page From Margin To Margin', 50, 60, 20, true);
    const cols = [50, 220, 390].flatMap((x, c) => column([`c${c} first line of words`, `c${c} second line of words`, `c${c} third line.`], x, 100));
    const md = pageMarkdown([...cols.reverse(), title]);
    const at = ['A Title', 'c0 first', 'c0 third', 'c1 first', 'c1 third', 'c2 first', 'c2 third'].map((s) => md.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(md).toMatch(/^# A Title/m);
  });

  it('still finds a gutter that a word too long for its column runs into', () => {
    const rows = Array.from({ length: 10 }, (_, i) => i);
    const left = rows.map((i) => run(`left line ${i} of the column`, 50, 100 + i * 12));
    const right = rows.map((i) => run(`right line ${i} of the column`, 250, 100 + i * 12));
    // Row 4's left line is one overlong word whose box ends inside the right column.
    left[4] = run('Grundeinkommensbefürworterinnen', 50, 148);
    left[4].width = 210;
    const md = pageMarkdown([...left, ...right]);
    expect(md.indexOf('left line 9')).toBeLessThan(md.indexOf('right line 0'));
    expect(md).toContain('Grundeinkommensbefürworterinnen');
  });

  it('does not split a one-row heading at the wide gap after its number', () => {
    const md = pageMarkdown([
      run('1', 50, 100, 14, true),
      run('Introduction', 70, 100, 14, true),
      ...column(['Body text of the paper goes here and on.'], 50, 130),
    ]);
    expect(md).toMatch(/^# 1 Introduction$/m);
  });

  it('starts a paragraph at a first-line indent after a short line, and runs a numbered paragraph on flush left', () => {
    const full = 'filler words that run the whole width of the column to its edge';
    const md = pageMarkdown([
      run('A short opening line', 60, 100),
      run(`Next paragraph ${full}`, 60, 112),
      run(`and its second line, ${full}.`, 50, 124),
      run(`3. Piraten fordern die Stärkung der ${full}`, 50, 148),
      run(`flush left under it, still ${full}.`, 50, 160),
    ]);
    expect(md).toContain('A short opening line\n\nNext paragraph');
    expect(md).toMatch(/^3\. Piraten fordern .* flush left under it/m);
  });

  it('mends words hyphenated at a line end and keeps list items apart', () => {
    const md = pageMarkdown([...column(['The harbour was exten-', 'ded in the spring.'], 50, 100), ...column(['• First item', '• Second item'], 50, 150)]);
    expect(md).toContain('The harbour was extended in the spring.');
    expect(md).toContain('- First item\n- Second item');
  });
});

describe('PDF tables', () => {
  it('finds rows of short aligned cells and renders a GFM table', () => {
    const runs = [run('Name', 50, 100), run('Qty', 200, 100), run('Bolt', 50, 114), run('12', 200, 114), run('Nut', 50, 128), run('7', 200, 128)];
    const tables = findTables(toSegments(runs));
    expect(tables).toHaveLength(1);
    expect(tables[0]!.rows).toEqual([
      ['Name', 'Qty'],
      ['Bolt', '12'],
      ['Nut', '7'],
    ]);
  });

  it('does not take two columns of prose for a table', () => {
    const left = column(['alpha one two three four five six', 'alpha seven eight nine ten eleven', 'alpha twelve thirteen fourteen.'], 50, 100);
    const right = column(['beta one two three four five six', 'beta seven eight nine ten eleven', 'beta twelve thirteen fourteen.'], 300, 100);
    expect(findTables(toSegments([...left, ...right]))).toEqual([]);
  });
});

describe('running headers and footers', () => {
  it('drops text repeated in the margin bands of most pages and bare page numbers, not body text', () => {
    const pages = [1, 2, 3].map((n) => ({
      height: 792,
      segments: toSegments([run('Journal of Examples, vol. 3', 50, 40), run(`Body text number ${n} of this page.`, 50, 300), run(String(n), 300, 760)]),
    }));
    const dropped = runningLines(pages);
    for (const [i, page] of pages.entries()) {
      expect([...dropped[i]!].map((s) => s.text).sort()).toEqual([String(i + 1), 'Journal of Examples, vol. 3'].sort());
      expect(dropped[i]!.has(page.segments.find((s) => s.text.startsWith('Body'))!)).toBe(false);
    }
  });
});

describe('page ranges', () => {
  it('parses lists and open ranges and refuses ranges outside the document', () => {
    expect(selectPages('2,4-5,9-', 10)).toEqual([2, 4, 5, 9, 10]);
    expect(selectPages(undefined, 3)).toEqual([1, 2, 3]);
    expect(() => selectPages('5-3', 10)).toThrow(/pages: "5-3"/);
    expect(() => selectPages('20', 10)).toThrow(/has 10 pages/);
  });
});

describe('content sniffing', () => {
  const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
  it('trusts the bytes over the header', () => {
    expect(sniffDocument(bytes('%PDF-1.7\n...'), 'text/html', 'https://x.test/a')).toEqual({ kind: 'pdf' });
    expect(sniffDocument(bytes('{"a":1}'), 'application/octet-stream', 'https://x.test/a')).toEqual({ kind: 'json' });
    expect(sniffDocument(bytes('<?xml version="1.0"?><rss/>'), 'text/plain', 'https://x.test/a')).toEqual({ kind: 'xml' });
    expect(sniffDocument(bytes('<!DOCTYPE html><p>hi'), 'application/pdf', 'https://x.test/a')).toEqual({ kind: 'html' });
    expect(sniffDocument(bytes('a,b\n1,2\n'), 'text/csv', 'https://x.test/a')).toEqual({ kind: 'csv' });
    expect(sniffDocument(bytes('a,b\n1,2\n'), 'text/plain', 'https://x.test/a')).toEqual({ kind: 'text' });
    expect(sniffDocument(bytes('\x89PNG\r\n\x1a\n'), 'application/pdf', 'https://x.test/a')).toMatchObject({ kind: 'unsupported', what: 'a PNG image' });
  });
});
