// A 300-page PDF read by browser.markdown's document path (src/extract/markdown-pool.ts, documentInWorker)
// while a loopback server in this same process keeps being asked for answers: the reading runs in an
// extraction worker, so this thread keeps answering. The assertion counts answers completed while the
// conversion was pending, never milliseconds. The same file read on this thread (readPdf directly) is the
// control: pdf.js's in-thread "worker" passes its messages as promise jobs and the layout is synchronous, so
// there the loop gets few or no turns for I/O.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { documentInWorker } from '../../src/extract/markdown-pool.js';
import { readPdf } from '../../src/extract/document/pdf/read-pdf.js';
import { makeTextPdf } from '../support/document-fixtures.js';

const PAGES = 300;
let server: http.Server;
let port: number;
let pdf: Uint8Array;

beforeAll(async () => {
  const paragraph = (n: number) =>
    `Paragraph ${n} records how the harbour board kept its ledgers, who audited them each spring, and why the accounts moved to the new building.`;
  pdf = await makeTextPdf(
    Array.from({ length: PAGES }, (_, i) => ({ heading: `Chapter ${i + 1}`, paragraphs: [1, 2, 3, 4, 5, 6].map((n) => paragraph(i * 10 + n)) })),
    { title: 'Harbour Board Ledgers' },
  );
  server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

/** Answers the loopback server gave (one request at a time) while `work` was pending, and its result. */
async function answersDuring<T>(work: () => Promise<T>): Promise<{ answers: number; value: T }> {
  let pending = true;
  let answers = 0;
  const prober = (async () => {
    while (pending) {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      await res.text();
      expect(res.status).toBe(200);
      if (pending) answers++;
    }
  })();
  // The prober's first request goes out before the conversion starts.
  await new Promise((resolve) => setImmediate(resolve));
  try {
    const value = await work();
    return { answers, value };
  } finally {
    pending = false;
    await prober;
  }
}

it('keeps answering while a 300-page PDF is read in an extraction worker', { timeout: 240_000 }, async () => {
  const off = await answersDuring(() =>
    documentInWorker({ bytes: pdf, contentType: 'application/pdf', url: 'http://docs.test/ledgers.pdf', options: {}, content: 'main' }),
  );
  expect(off.value.kind).toBe('document');
  const doc = off.value.kind === 'document' ? off.value.document : undefined;
  expect(doc?.pages).toBe(PAGES);
  expect(doc?.markdown).toMatch(/^#{1,2} Chapter 1\n/m);
  expect(doc?.markdown).toContain(`Chapter ${PAGES}`);
  expect(doc?.markdown).toContain(`Paragraph ${(PAGES - 1) * 10 + 6} records`);

  const on = await answersDuring(() => readPdf(pdf));
  expect(on.value.markdown).toBe(doc?.markdown);
  process.stderr.write(`answers while converting: in a worker ${off.answers}, on this thread ${on.answers}\n`);
  expect(off.answers).toBeGreaterThan(20);
  expect(off.answers).toBeGreaterThan(5 * on.answers);
});
