// site.page's plain fetch on URLs that are documents, not pages: a PDF drawn with pdf-lib, a DOCX zipped
// here, a CSV, JSON and plain text, served from a loopback server, read through the real service (the
// tool, the engine, the extraction workers) over REST. An image is a page with no Markdown, not a failure;
// a crawl that meets a PDF link has the PDF's Markdown in its results; a document costs a plain page's price.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makeTextPdf } from '../support/document-fixtures.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { settleTask } from '../support/task-wait.js';
import { api, startTestService, type TestService } from '../support/service.js';

const PARAGRAPH = 'The harbour board met twice this year and agreed to rebuild the north pier before the winter storms.';

let svc: TestService;
let site: LocalServer;
const files = new Map<string, { type: string; body: Uint8Array | string }>();

beforeAll(async () => {
  files.set('/', {
    type: 'text/html',
    body: '<html><head><title>Home</title></head><body><h1>Home</h1><p><a href="/report.pdf">The report</a></p></body></html>',
  });
  files.set('/report.pdf', {
    type: 'application/pdf',
    body: await makeTextPdf(
      [
        { heading: 'Introduction', paragraphs: [PARAGRAPH] },
        { heading: 'Outlook', paragraphs: ['Next year the ferry moves.'] },
      ],
      {
        title: 'Harbour Report',
      },
    ),
  });
  // A PDF labelled as a generic download: what it is comes from its bytes.
  files.set('/download', { type: 'application/octet-stream', body: files.get('/report.pdf')!.body });
  files.set('/memo.docx', {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    body: makeDocx([{ heading: 1, text: 'Quarterly Memo' }, { paragraph: 'Sales rose in every region.' }]),
  });
  files.set('/data.csv', { type: 'text/csv', body: 'city,population\nOslo,709000\nBergen,291000\n' });
  files.set('/data.json', { type: 'application/json', body: '{"name":"widget"}' });
  files.set('/notes.txt', { type: 'text/plain; charset=utf-8', body: 'First line of notes.\nSecond line.' });
  files.set('/logo.png', { type: 'image/png', body: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') });
  site = await startLocalServer({
    handler: (req, res) => {
      const file = files.get((req.url ?? '/').split('?')[0]!);
      if (!file) {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end('<html><body>not found</body></html>');
        return;
      }
      res.writeHead(200, { 'content-type': file.type });
      res.end(typeof file.body === 'string' ? file.body : Buffer.from(file.body));
    },
  });
  svc = await startTestService({ NETWORK_ALLOWLIST: '127.0.0.1/32' });
}, 60_000);

afterAll(async () => {
  await svc?.close();
  await site?.close();
});

async function run(tool: string, body: Record<string, unknown>, key: string) {
  const created = await api(svc.url, 'POST', `/v1/tools/${tool}/tasks`, { token: key, body });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const done = await settleTask(svc.url, { id: created.body.task_id, token: key }).then((t) => t.body);
  expect(done.status, JSON.stringify(done.error)).toBe('complete');
  return done.result;
}

const ALL = ['markdown', 'links', 'content', 'metadata'];

describe('site.page on documents (plain fetch)', () => {
  it('reads a PDF to Markdown, with its title and page count, at the plain page price', async () => {
    const { key, id } = await svc.createKey(1);
    const before = (await svc.rt.store.findKey(id))!.balanceMicros;
    const page = await run('site.page', { url: `${site.origin}/report.pdf`, formats: ALL }, key);
    expect(page.status_code).toBe(200);
    expect(page.content_type).toBe('application/pdf');
    expect(page.markdown).toContain('Introduction');
    expect(page.markdown).toContain(PARAGRAPH);
    expect(page.markdown).toContain('Next year the ferry moves.');
    expect(page.metadata).toMatchObject({ title: 'Harbour Report', pages: 2 });
    // `content` is a page's HTML; a document has none.
    expect(page.content).toBe('');
    expect(page.links).toEqual([]);
    expect(before - (await svc.rt.store.findKey(id))!.balanceMicros).toBe(1_000);

    const download = await run('site.page', { url: `${site.origin}/download` }, key);
    expect(download.markdown).toContain(PARAGRAPH);
  });

  it('reads DOCX, CSV, JSON and plain text to Markdown', async () => {
    const { key } = await svc.createKey(1);
    const docx = await run('site.page', { url: `${site.origin}/memo.docx`, formats: ['markdown', 'metadata'] }, key);
    expect(docx.markdown).toContain('# Quarterly Memo');
    expect(docx.markdown).toContain('Sales rose in every region.');
    expect(docx.metadata.title).toBe('Quarterly Memo');
    const csv = await run('site.page', { url: `${site.origin}/data.csv` }, key);
    expect(csv.markdown).toBe('| city | population |\n| --- | --- |\n| Oslo | 709000 |\n| Bergen | 291000 |');
    const json = await run('site.page', { url: `${site.origin}/data.json` }, key);
    expect(json.markdown).toBe('```json\n{\n  "name": "widget"\n}\n```');
    const text = await run('site.page', { url: `${site.origin}/notes.txt` }, key);
    expect(text.markdown).toBe('First line of notes.\nSecond line.');
  });

  it('an image is a page with no Markdown, not a failure', async () => {
    const { key } = await svc.createKey(1);
    const png = await run('site.page', { url: `${site.origin}/logo.png`, formats: ['markdown', 'links'] }, key);
    expect(png).toMatchObject({ status_code: 200, content_type: 'image/png', markdown: '', links: [] });
  });

  it('a crawl that meets a PDF link has its Markdown', async () => {
    const { key } = await svc.createKey(1);
    const crawl = await run('site.crawl', { url: `${site.origin}/`, limit: 10, max_depth: 1, formats: ['markdown'] }, key);
    const r = await fetch(`${svc.url}${crawl.results_url}`);
    expect(r.status).toBe(200);
    const lines = (await r.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const pdf = lines.find((l) => l.url === `${site.origin}/report.pdf`);
    expect(pdf?.status).toBe('complete');
    expect(pdf.result.markdown).toContain(PARAGRAPH);
  });
});
