// site.page with render: true reads a page back from Chromium: on a page without scripts it must give what
// the plain fetch gives (links, Markdown, metadata) and the HTML as page.content() would (doctype first),
// page after page from reused tabs (the pool hands a tab back to the origin it last showed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlSite } from '../../bench/lib/crawl-site.mjs';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { makeToolContext, type TestToolContext } from '../support/tool-context.js';
import sitePage from '../../tools/site.page.js';

const HOST = '127.0.0.1';
/**
 * A page that counts how often its HTML is serialised (documentElement.outerHTML read) and says so in the
 * HTML it gives: the count is in what the reader got from its last read.
 */
const COUNTS_READS =
  '<!doctype html><html><head><title>Counts reads</title></head><body><p>A short page, as short as a bot wall.</p><script>' +
  "let reads = 0; const own = Object.getOwnPropertyDescriptor(Element.prototype, 'outerHTML');" +
  "Object.defineProperty(document.documentElement, 'outerHTML', { get() { reads++; return own.get.call(this) + '<!--reads: ' + reads + '-->'; } });" +
  '</script></body></html>';
let server: LocalServer;
let ctx: TestToolContext;
let port = 0;

beforeAll(async () => {
  const site = createCrawlSite({ hosts: [HOST], pages: 20, port: () => port });
  server = await startLocalServer({
    handler: (req, res) => (req.url === '/counts-reads' ? res.writeHead(200, { 'content-type': 'text/html' }).end(COUNTS_READS) : site.handler(req, res)),
    host: HOST,
  });
  port = server.port;
  ctx = makeToolContext({ NETWORK_ALLOWLIST: '127.0.0.1/32' });
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  await server?.close();
});

describe('site.page render: true', () => {
  it('gives the links, Markdown and metadata of the plain fetch, and the HTML with its doctype', async () => {
    const formats = ['links', 'markdown', 'metadata', 'content'];
    // Pages 1 to 6: every tenth page links a session id made afresh for each request.
    for (let i = 1; i <= 6; i++) {
      const url = `http://${HOST}:${port}/p/${i}`;
      const plain = await sitePage.run(ctx, sitePage.input.parse({ url, formats }));
      const rendered = await sitePage.run(ctx, sitePage.input.parse({ url, formats, render: true }));
      expect(rendered.status_code).toBe(200);
      expect(rendered.links.length).toBeGreaterThan(5);
      expect(rendered.links).toEqual(plain.links);
      expect(rendered.markdown).toContain(`This is page number ${i} `);
      expect(rendered.markdown).toBe(plain.markdown);
      expect(rendered.metadata).toEqual(plain.metadata);
      expect(rendered.content).toMatch(/^<!DOCTYPE html><html lang="en"><head><title>Page \d+<\/title>/);
    }
  });

  it('reads a short page once: the HTML it returns is the one the bot-wall check judged', async () => {
    // Before, a page as short as a wall was serialised for the check, then again for the result.
    const url = `http://${HOST}:${port}/counts-reads`;
    const rendered = await sitePage.run(ctx, sitePage.input.parse({ url, formats: ['content', 'markdown'], render: true }));
    expect(rendered.status_code).toBe(200);
    expect(rendered.content).toMatch(/<!--reads: 1-->$/);
    expect(rendered.markdown).toContain('A short page');
  });
});
