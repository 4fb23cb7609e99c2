// browser.markdown on URLs that are documents, not pages: each file is built at test time (pdf-lib,
// Chromium's printer, Office Open XML zipped here), served from a loopback server under a name Knot
// resolves, and read through the real tool: Chromium sees the download or the non-HTML type, the guarded
// client fetches the file again, and the reader sniffs what it is from the bytes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserPoolService } from '../../src/browser/service.js';
import { guardedGet } from '../../src/net/guarded-get.js';
import { httpClientService } from '../../src/net/http-client.js';
import content from '../../tools/browser.content.js';
import markdown from '../../tools/browser.markdown.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';
import { makeDocx, makeImageOnlyPdf, makeTextPdf, makeXlsx } from '../support/document-fixtures.js';

let h: BrowserHarness;
let server: http.Server;
let port = 0;
const files = new Map<string, { type: string; body: Uint8Array | string; headers?: Record<string, string> }>();

const LOREM = (n: number) =>
  `Paragraph ${n} explains how the society kept its records, which ledgers were used, who audited them and why the accounts were moved to the new building.`;

/** A page whose two columns are positioned by CSS grid, the right one first in the source. */
const TWO_COLUMN_HTML = `<html><head><title>Grid Columns</title><style>
body{font:12px serif;margin:0} .g{display:grid;grid-template-columns:1fr 1fr;column-gap:36px}
.l{grid-column:1;grid-row:1} .r{grid-column:2;grid-row:1} h1{font-size:26px}</style></head>
<body><h1>Harbour Survey</h1><div class="g"><div class="r"><p>Right column first words. ${LOREM(3)}</p><p>${LOREM(4)} Right column last words.</p></div>
<div class="l"><p>Left column first words. ${LOREM(1)}</p><p>${LOREM(2)} Left column last words.</p></div></div></body></html>`;

function url(path: string): string {
  return `http://site.fixture.test:${port}${path}`;
}

beforeAll(async () => {
  h = await startBrowserHarness();
  const { pool } = await h.base.use(browserPoolService);
  const printed = await pool.withPage(async (page) => {
    await page.setContent(TWO_COLUMN_HTML);
    return page.pdf({ format: 'A4', margin: { top: '40px', bottom: '40px', left: '40px', right: '40px' } });
  });
  files.set('/report.pdf', {
    type: 'application/pdf',
    body: await makeTextPdf(
      [
        { heading: 'Introduction', paragraphs: [LOREM(1), LOREM(2)] },
        { heading: 'Finances', paragraphs: [LOREM(3)] },
        { heading: 'Outlook', paragraphs: [LOREM(4)] },
      ],
      { title: 'Society Report', author: 'A. Clerk' },
    ),
  });
  files.set('/download', {
    type: 'application/octet-stream',
    body: files.get('/report.pdf')!.body,
    headers: { 'content-disposition': 'attachment; filename="r.pdf"' },
  });
  files.set('/columns.pdf', { type: 'application/pdf', body: printed });
  files.set('/scan.pdf', { type: 'application/pdf', body: await makeImageOnlyPdf() });
  files.set('/memo.docx', {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    body: makeDocx([
      { heading: 1, text: 'Quarterly Memo' },
      { paragraph: 'Sales rose in every region. See ', link: { text: 'the figures', href: 'https://example.com/figures' } },
      { heading: 2, text: 'Actions' },
      { bullets: ['Hire two engineers', 'Open the Leeds office'] },
      {
        table: [
          ['Region', 'Sales'],
          ['North', '120'],
          ['South', '95'],
        ],
      },
    ]),
  });
  files.set('/book.xlsx', {
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    body: makeXlsx([
      {
        name: 'Stock',
        rows: [
          ['Item', 'Count'],
          ['Bolt', 12],
          ['Nut', 7],
        ],
      },
      { name: 'Staff', rows: [['Name'], ['Ada'], ['Grace']] },
    ]),
  });
  files.set('/data.csv', { type: 'text/csv', body: 'city;population\nOslo;709000\n"Bergen; Vestland";291000\n' });
  files.set('/data.json', { type: 'application/json', body: '{"name":"widget","tags":["a","b"]}' });
  files.set('/markup.txt', { type: 'text/plain', body: 'A note that quotes <script>alert(1)</script> and <b>tags</b>.' });
  files.set('/notes.txt', { type: 'text/plain; charset=utf-8', body: 'First line of notes.\nSecond line.' });
  files.set('/feed.xml', {
    type: 'application/rss+xml',
    body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour News</title><item><title>Ferry times change</title><link>https://example.com/ferry</link><pubDate>Mon, 02 Mar 2026 10:00:00 GMT</pubDate><description>&lt;p&gt;The &lt;b&gt;winter&lt;/b&gt; timetable starts.&lt;/p&gt;</description></item><item><title>New pier opens</title><link>https://example.com/pier</link></item></channel></rss>`,
  });
  // A page saved and served as a download: read by the document path, converted by the page's steps.
  files.set('/saved-page', {
    type: 'application/octet-stream',
    body: `<html><head><title>Harbour Log</title></head><body><div class="cookie-banner">We use cookies to count visits.</div><main><h1>Harbour Log</h1><p>${LOREM(1)}</p><p>${LOREM(2)}</p><p>Tides are in <a href="/tables/tides">the tide table</a> and <a href="notes.txt">the harbour notes</a>.</p><img src="img/quay.png" alt="The quay"></main></body></html>`,
    headers: { 'content-disposition': 'attachment; filename="log.html"' },
  });
  files.set('/song.png', { type: 'application/octet-stream', body: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') });
  server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/moved') {
      res.writeHead(302, { location: '/report.pdf' });
      res.end();
      return;
    }
    if (path === '/to-private') {
      res.writeHead(302, { location: `http://canary.fixture.test:${port}/report.pdf` });
      res.end();
      return;
    }
    const file = files.get(path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, ...file.headers });
    res.end(typeof file.body === 'string' ? file.body : Buffer.from(file.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await h?.close();
});

describe('browser.markdown on documents', () => {
  it('reads a PDF: headings, paragraphs, metadata; running header and page numbers removed', async () => {
    const out = await h.run(markdown, { url: url('/report.pdf') });
    expect(out.source).toBe('document');
    expect(out.title).toBe('Society Report');
    expect(out.document).toEqual({ type: 'pdf', pages: 3, author: 'A. Clerk' });
    // The same fields as a page's, where the file says them.
    expect(out).toMatchObject({ byline: 'A. Clerk', published_at: '', lang: '', site_name: '', excerpt: '' });
    expect(out.word_count).toBeGreaterThan(20);
    const md = out.markdown;
    expect(md).toMatch(/^# Introduction$/m);
    expect(md).toMatch(/^# Finances$/m);
    for (const n of [1, 2, 3, 4]) expect(md).toContain(LOREM(n));
    expect(md.indexOf('Paragraph 1')).toBeLessThan(md.indexOf('Paragraph 3'));
    expect(md).not.toContain('Annual Report of the Example Society');
    expect(md).not.toMatch(/Page \d/);
    expect(out.bytes).toBe(Buffer.byteLength(md));
  });

  it('keeps running lines with content full, marks pages on request and reads a page range', async () => {
    const full = await h.run(markdown, { url: url('/report.pdf'), content: 'full' });
    expect(full.markdown).toContain('Annual Report of the Example Society');
    const ranged = await h.run(markdown, { url: url('/report.pdf'), pages: '2-3', page_breaks: true });
    expect(ranged.document).toMatchObject({ pages: 3 });
    expect(ranged.markdown).toMatch(/^<!-- page 2 -->$/m);
    expect(ranged.markdown).toMatch(/^<!-- page 3 -->$/m);
    expect(ranged.markdown).not.toContain('page 1 -->');
    expect(ranged.markdown).not.toContain('Introduction');
    expect(ranged.markdown).toContain('Finances');
  });

  it('refuses a page range outside the document, naming pages', async () => {
    await expect(h.run(markdown, { url: url('/report.pdf'), pages: '7-9' })).rejects.toThrow(/pages: the document has 3 pages/);
    expect(() => markdown.input.parse({ url: url('/report.pdf'), pages: 'first' })).toThrow(/pages/);
  });

  it('reads a file download (octet-stream, attachment) by sniffing the bytes, and follows redirects', async () => {
    const out = await h.run(markdown, { url: url('/download') });
    expect(out.document?.type).toBe('pdf');
    expect(out.markdown).toContain(LOREM(2));
    const moved = await h.run(markdown, { url: url('/moved') });
    expect(moved.final_url).toBe(url('/report.pdf'));
    expect(moved.document?.type).toBe('pdf');
  });

  it('reads a two-column PDF in reading order, left column before right, though the right one comes first in the file', async () => {
    const out = await h.run(markdown, { url: url('/columns.pdf') });
    const md = out.markdown;
    expect(md).toMatch(/^# Harbour Survey$/m);
    const order = ['Left column first words', 'Left column last words', 'Right column first words', 'Right column last words'].map((s) => md.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('says a PDF without a text layer needs OCR', async () => {
    const out = await h.run(markdown, { url: url('/scan.pdf') });
    expect(out.document).toMatchObject({ type: 'pdf', needs_ocr: true, pages: 1 });
    expect(out.markdown).toMatch(/no text layer/);
  });

  it('reads DOCX with headings, lists, a table and a link', async () => {
    const out = await h.run(markdown, { url: url('/memo.docx') });
    expect(out.document?.type).toBe('docx');
    expect(out.title).toBe('Quarterly Memo');
    const md = out.markdown;
    expect(md).toMatch(/^# Quarterly Memo$/m);
    expect(md).toMatch(/^## Actions$/m);
    expect(md).toMatch(/^- Hire two engineers$/m);
    expect(md).toMatch(/^- Open the Leeds office$/m);
    expect(md).toContain('[the figures](https://example.com/figures)');
    expect(md).toContain('| Region | Sales |\n| --- | --- |\n| North | 120 |\n| South | 95 |');
    expect(md.indexOf('Quarterly Memo')).toBeLessThan(md.indexOf('Actions'));
  });

  it('reads XLSX sheets and CSV as GFM tables', async () => {
    const book = await h.run(markdown, { url: url('/book.xlsx') });
    expect(book.document?.type).toBe('xlsx');
    expect(book.markdown).toBe('## Stock\n\n| Item | Count |\n| --- | --- |\n| Bolt | 12 |\n| Nut | 7 |\n\n## Staff\n\n| Name |\n| --- |\n| Ada |\n| Grace |');
    const csv = await h.run(markdown, { url: url('/data.csv') });
    expect(csv.document?.type).toBe('csv');
    expect(csv.markdown).toBe('| city | population |\n| --- | --- |\n| Oslo | 709000 |\n| Bergen; Vestland | 291000 |');
  });

  it('reads JSON (pretty, fenced), plain text and an RSS feed as its items', async () => {
    const json = await h.run(markdown, { url: url('/data.json') });
    expect(json.document?.type).toBe('json');
    expect(json.markdown).toBe('```json\n{\n  "name": "widget",\n  "tags": [\n    "a",\n    "b"\n  ]\n}\n```');
    const text = await h.run(markdown, { url: url('/notes.txt') });
    expect(text.markdown).toBe('First line of notes.\nSecond line.');
    expect(text.document?.type).toBe('text');
    const feed = await h.run(markdown, { url: url('/feed.xml') });
    expect(feed.document?.type).toBe('feed');
    expect(feed.title).toBe('Harbour News');
    expect(feed.markdown).toBe(
      '# Harbour News\n\n## [Ferry times change](https://example.com/ferry)\n\nMon, 02 Mar 2026 10:00:00 GMT\n\nThe winter timetable starts.\n\n## [New pier opens](https://example.com/pier)',
    );
  });

  it("applies off and debug to a page served as a file, which goes through the page conversion's steps", async () => {
    const traced = await h.run(markdown, { url: url('/saved-page'), content: 'full', debug: true });
    expect(traced.trace).toContainEqual({ rule: 'cookie-banners', tree: 'page', tag: 'div', text: 'We use cookies to count visits.' });
    expect(traced.markdown).not.toContain('We use cookies');
    const off = await h.run(markdown, { url: url('/saved-page'), content: 'full', off: ['cookie-banners'] });
    expect(off.trace).toBeUndefined();
    expect(off.markdown).toContain('We use cookies to count visits.');
    expect(off.markdown).toContain(LOREM(2));
  });

  it('resolves the relative links and images of a page served as a file against the URL it came from', async () => {
    const out = await h.run(markdown, { url: url('/saved-page'), content: 'full' });
    expect(out.markdown).toContain(`[the tide table](${url('/tables/tides')})`);
    expect(out.markdown).toContain(`[the harbour notes](${url('/notes.txt')})`);
    expect(out.markdown).toContain(`![The quay](${url('/img/quay.png')})`);
  });

  it('answers off and debug on a file (no steps run on it): the same Markdown, an empty trace; an unknown name is refused as for a page', async () => {
    const plain = await h.run(markdown, { url: url('/memo.docx') });
    const switched = await h.run(markdown, { url: url('/memo.docx'), off: ['cookie-banners', 'link-dense'], debug: true });
    expect(switched.markdown).toBe(plain.markdown);
    expect(switched.trace).toEqual([]);
    expect(plain.trace).toBeUndefined();
    await expect(h.run(markdown, { url: url('/report.pdf'), off: ['cookie-banner'] })).rejects.toThrow(
      /no extraction rule named \\"cookie-banner\\" \(rules: skip-links, /,
    );
  });

  it('refuses a download that is not a document, saying what it is', async () => {
    await expect(h.run(markdown, { url: url('/song.png') })).rejects.toThrow(/is a PNG image, not a page or a document/);
  });
});

describe('the guarded document fetch', () => {
  it('checks every redirect hop: a redirect to a blocked address is refused', async () => {
    const client = await h.base.use(httpClientService);
    await expect(guardedGet(client, url('/to-private'), { maxBytes: 1_000_000, timeoutMs: 10_000 })).rejects.toThrow(/private address/);
    const ok = await guardedGet(client, url('/moved'), { maxBytes: 1_000_000, timeoutMs: 10_000 });
    expect(ok.url).toBe(url('/report.pdf'));
  });

  it('caps the size of the body', async () => {
    const client = await h.base.use(httpClientService);
    await expect(guardedGet(client, url('/report.pdf'), { maxBytes: 100, timeoutMs: 10_000 })).rejects.toThrow(/more than the 0 MB limit|limit for documents/);
  });
});

describe('browser.content on documents', () => {
  it('answers a PDF with its text as HTML: headings and paragraphs, the title from the metadata', async () => {
    const out = await h.run(content, { url: url('/report.pdf') });
    expect(out.title).toBe('Society Report');
    expect(out.final_url).toBe(url('/report.pdf'));
    expect(out.status_code).toBe(200);
    expect(out.html).toMatch(/^<!doctype html>/);
    expect(out.html).toMatch(/<h\d>Finances<\/h\d>/);
    expect(out.html).toContain(`<p>${LOREM(3)}</p>`);
    expect(out.bytes).toBe(Buffer.byteLength(out.html));
  });

  it('answers a DOCX with its headings, list, table and link as HTML', async () => {
    const out = await h.run(content, { url: url('/memo.docx') });
    expect(out.html).toMatch(/<h1>Quarterly Memo<\/h1>/);
    expect(out.html).toContain('<li>Hire two engineers</li>');
    expect(out.html).toMatch(/<table>[\s\S]*<td>North<\/td>[\s\S]*<\/table>/);
    expect(out.html).toContain('<a href="https://example.com/figures">the figures</a>');
  });

  it('keeps markup inside a text file as text', async () => {
    const out = await h.run(content, { url: url('/markup.txt') });
    expect(out.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out.html).not.toContain('<script>');
  });
});
