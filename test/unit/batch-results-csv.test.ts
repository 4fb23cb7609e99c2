// Batch results as CSV (csv-stringify): RFC 4180 quoting, and no cell a spreadsheet would run as a
// formula (G10): a cell starting with = + - @, a tab or a carriage return is written as text.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CSV_HEADER, toCsvLine, type ResultLine } from '../../src/http/batch-results.js';

const line = (over: Partial<ResultLine>): ResultLine => ({ index: 0, task_id: 'task_1', status: 'complete', result: null, error: null, ...over });

function cells(l: ResultLine): string[] {
  return (parse(CSV_HEADER + toCsvLine(l)) as string[][])[1]!;
}

describe('batch results as CSV', () => {
  it('quotes commas, quotes and line breaks and keeps the result as one JSON cell', () => {
    const l = line({ result: { text: 'a, "b"\nc' } });
    expect(toCsvLine(l).endsWith('\r\n')).toBe(true);
    expect(cells(l)).toEqual(['0', 'task_1', 'complete', '', JSON.stringify({ text: 'a, "b"\nc' })]);
  });

  it.each(['=HYPERLINK("https://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])('neutralises a cell starting like a formula: %j', (error) => {
    const [, , , cell] = cells(line({ status: 'failed', error }));
    expect(cell).toBe(`'${error}`);
  });

  it('leaves ordinary cells alone', () => {
    expect(cells(line({ status: 'failed', error: 'failed as asked (input)' }))[3]).toBe('failed as asked (input)');
  });
});
