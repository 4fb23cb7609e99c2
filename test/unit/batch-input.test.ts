// The batch body reader: CSV (csv-parse), NDJSON and JSON read as the bytes stream in, every limit
// enforced while reading. A 20 MB body of tiny rows is refused after the first rows past the item limit:
// the source is pulled only that far (counted in bytes and rows), never to its end.
import { describe, expect, it } from 'vitest';
import { readBatchInputs, type BatchFormat, type BatchReadProgress } from '../../src/http/batch-input.js';

const LIMITS = { maxItems: 100, maxBytes: 20 * 1024 * 1024 };

async function read(format: BatchFormat, body: string | string[], limits = LIMITS): Promise<unknown[]> {
  return readBatchInputs(Array.isArray(body) ? body : [body], format, limits);
}

async function refusal(
  format: BatchFormat,
  body: string | string[],
  limits = LIMITS,
): Promise<{ status: number; message: string; field?: string; code: string }> {
  try {
    await read(format, body, limits);
  } catch (err) {
    const e = err as { status: number; message: string; field?: string; code: string };
    return { status: e.status, message: e.message, code: e.code, ...(e.field !== undefined ? { field: e.field } : {}) };
  }
  throw new Error('expected a refusal');
}

/** A lazy 20 MB body of one-character rows, counting how much of it the reader pulled. */
function tinyRows(header: string, row: string, totalBytes: number, pulled: { bytes: number; chunks: number }): AsyncIterable<Buffer> {
  const chunk = Buffer.from(row.repeat(Math.floor(16_384 / row.length)));
  return {
    async *[Symbol.asyncIterator]() {
      const first = Buffer.from(header);
      pulled.bytes += first.length;
      yield first;
      while (pulled.bytes < totalBytes) {
        pulled.bytes += chunk.length;
        pulled.chunks++;
        yield chunk;
      }
    },
  };
}

describe('CSV', () => {
  it('reads quoted cells, doubled quotes, line breaks in quotes, CRLF, a BOM and dotted paths', async () => {
    const inputs = await read('csv', '\ufeffvalue,extra.note\r\n"a, b","say ""hi"""\r\n"multi\nline",\n\nc,x\n');
    expect(inputs.map((i) => JSON.parse(JSON.stringify(i)))).toEqual([
      { value: 'a, b', extra: { note: 'say "hi"' } },
      { value: 'multi\nline' },
      { value: 'c', extra: { note: 'x' } },
    ]);
    // Rows are null-prototype objects: nothing they hold can reach Object.prototype.
    expect(Object.getPrototypeOf(inputs[0])).toBeNull();
  });

  it('reads a body split anywhere, even inside a quoted cell or a multi-byte character', async () => {
    const text = 'value\n"a,\nb"\nnaïve\n';
    const bytes = Buffer.from(text);
    const pieces = Array.from(bytes, (b) => Buffer.from([b]));
    const inputs = await readBatchInputs(pieces, 'csv', LIMITS);
    expect(inputs.map((i) => (i as { value: string }).value)).toEqual(['a,\nb', 'naïve']);
  });

  it('refuses a row wider than the header, naming the row', async () => {
    expect(await refusal('csv', 'value\nok\na,b\n')).toMatchObject({
      status: 400,
      field: 'row 2',
      message: 'CSV row 2 has 2 cells but the header names 1 columns.',
    });
  });

  it('refuses an unterminated quote', async () => {
    const r = await refusal('csv', 'value\nok\n"open,\nmore\n');
    expect(r).toMatchObject({ status: 400 });
    expect(r.message).toMatch(/ends inside a quoted cell/);
  });

  it('refuses a header with an empty name, a reserved name, or a path deeper than any input', async () => {
    expect(await refusal('csv', 'value,\nv,1\n')).toMatchObject({ status: 400, field: 'header' });
    expect(await refusal('csv', 'value,x.prototype\nv,1\n')).toMatchObject({ status: 400, field: 'x.prototype' });
    expect(await refusal('csv', `${Array.from({ length: 80 }, () => 'a').join('.')}\n1\n`)).toMatchObject({ status: 400, code: 'INPUT_TOO_DEEP' });
  });

  it('stops reading a 20 MB body of one-character rows right after the item limit', async () => {
    const pulled = { bytes: 0, chunks: 0 };
    const progress: BatchReadProgress = { bytes: 0, items: 0 };
    const body = tinyRows('value\n', 'x\n', 20 * 1024 * 1024, pulled);
    const err = await readBatchInputs(body, 'csv', { maxItems: 10_000, maxBytes: 21 * 1024 * 1024 }, progress).catch(
      (e: unknown) => e as { status: number; message: string },
    );
    expect(err).toMatchObject({ status: 400, message: expect.stringContaining('a batch takes at most 10000') });
    expect(progress.items).toBe(10_001);
    // 10,001 rows are 20 KB; the reader may be a few 16 KB chunks ahead of the parser, not megabytes.
    expect(pulled.bytes).toBeLessThan(256 * 1024);
  });

  it('refuses a body over the byte limit as it arrives', async () => {
    const pulled = { bytes: 0, chunks: 0 };
    const err = await readBatchInputs(tinyRows('value\n', 'abcdefgh\n', 20 * 1024 * 1024, pulled), 'csv', { maxItems: 1_000_000, maxBytes: 1024 * 1024 }).catch(
      (e: unknown) => e as { status: number },
    );
    expect(err).toMatchObject({ status: 413 });
    expect(pulled.bytes).toBeLessThan(2 * 1024 * 1024);
  });
});

describe('NDJSON', () => {
  it('reads one input a line, skipping blank lines, across chunk boundaries', async () => {
    expect(await read('ndjson', ['{"value":"a"}\n\n{"val', 'ue":"b"}\r\n{"value":"c"}'])).toEqual([{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
  });

  it('names the line that is not JSON', async () => {
    expect(await refusal('ndjson', '{"value":"a"}\n{oops\n')).toMatchObject({ status: 400, field: 'line 2' });
  });

  it('stops after the item limit', async () => {
    const pulled = { bytes: 0, chunks: 0 };
    const progress: BatchReadProgress = { bytes: 0, items: 0 };
    const err = await readBatchInputs(
      tinyRows('', '{}\n', 20 * 1024 * 1024, pulled),
      'ndjson',
      { maxItems: 10_000, maxBytes: 21 * 1024 * 1024 },
      progress,
    ).catch((e: unknown) => e as { status: number });
    expect(err).toMatchObject({ status: 400 });
    expect(progress.items).toBe(10_001);
    expect(pulled.bytes).toBeLessThan(256 * 1024);
  });

  it('refuses a line nested deeper than any tool input', async () => {
    expect(await refusal('ndjson', `${'['.repeat(100)}${']'.repeat(100)}\n`)).toMatchObject({ status: 400, code: 'INPUT_TOO_DEEP' });
  });
});

describe('JSON', () => {
  it('reads {"inputs": [...]} in order', async () => {
    expect(await read('json', ['{"inputs":[{"value":"a"},{"va', 'lue":"b"}], "note": 1}'])).toEqual([{ value: 'a' }, { value: 'b' }]);
  });

  it.each([
    ['no inputs', '{"other":[]}'],
    ['inputs not a list', '{"inputs":{"a":{"value":"x"}}}'],
    ['a top-level list', '[{"value":"a"}]'],
    ['an empty body', ''],
  ])('refuses %s: inputs must be an array', async (_name, body) => {
    expect(await refusal('json', body)).toMatchObject({ status: 400, field: 'inputs', message: 'inputs must be an array of tool inputs.' });
  });

  it('refuses a body that is not JSON', async () => {
    expect(await refusal('json', '{"inputs":[{"value":')).toMatchObject({ status: 400, field: 'inputs' });
  });

  it('stops after the item limit', async () => {
    const pulled = { bytes: 0, chunks: 0 };
    const progress: BatchReadProgress = { bytes: 0, items: 0 };
    const err = await readBatchInputs(
      tinyRows('{"inputs":[{}', ',{}', 20 * 1024 * 1024, pulled),
      'json',
      { maxItems: 10_000, maxBytes: 21 * 1024 * 1024 },
      progress,
    ).catch((e: unknown) => e as { status: number });
    expect(err).toMatchObject({ status: 400 });
    expect(progress.items).toBe(10_001);
    expect(pulled.bytes).toBeLessThan(256 * 1024);
  });

  it('refuses nesting deeper than any tool input while reading', async () => {
    const pulled = { bytes: 0, chunks: 0 };
    const err = await readBatchInputs(tinyRows('{"inputs":[', '[', 20 * 1024 * 1024, pulled), 'json', LIMITS).catch((e: unknown) => e as { code: string });
    expect(err).toMatchObject({ code: 'INPUT_TOO_DEEP' });
    expect(pulled.bytes).toBeLessThan(256 * 1024);
  });

  it('keeps a __proto__ key an own key (refused later by validation), never a prototype', async () => {
    const [input] = (await read('json', '{"inputs":[{"__proto__":{"polluted":1}}]}')) as Record<string, unknown>[];
    expect(Object.keys(input!)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
