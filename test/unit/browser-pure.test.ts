// Pure pieces of the browser tools: link selection, image size parsing, HTML → Markdown, the slot queue, the
// kept copy of a page that navigated away.
import { describe, expect, it } from 'vitest';
import { imageSize } from '../../src/browser/image-size.js';
import { selectLinks, siteOf } from '../../src/browser/links.js';
import { htmlToMarkdown } from '../../src/extract/markdown.js';
import { Slots } from '../../src/browser/slots.js';
import { isNavigationError, keptDocument } from '../../src/browser/loaded-page.js';
import { ARTICLE_HTML, LISTING_HTML } from '../support/fixture-server.js';

describe('selectLinks', () => {
  const raw = (hrefs: [string, string][]) => hrefs.map(([href, text]) => ({ href, text }));
  const page = 'https://www.example.co.uk/blog/post?x=1#top';

  it('keeps only http(s), drops in-page anchors, strips fragments and de-duplicates in page order', () => {
    const out = selectLinks(
      raw([
        ['https://www.example.co.uk/a#one', 'A'],
        ['https://www.example.co.uk/a#two', 'A again'],
        ['https://www.example.co.uk/blog/post?x=1#comments', 'Comments'],
        ['https://www.example.co.uk/blog/post?x=1', 'This page'],
        ['javascript:void(0)', 'JS'],
        ['mailto:a@example.co.uk', 'Mail'],
        ['tel:+441234', 'Tel'],
        ['ftp://files.example.co.uk/x', 'FTP'],
        ['data:text/html,hi', 'Data'],
        ['https://other.org/', ''],
        ['https://other.org/', 'Other'],
        ['not a url', 'Bad'],
      ]),
      page,
      'all',
    );
    expect(out).toEqual([
      { url: 'https://www.example.co.uk/a', text: 'A' },
      { url: 'https://www.example.co.uk/blog/post?x=1', text: 'This page' },
      { url: 'https://other.org/', text: 'Other' },
    ]);
  });

  it('internal means the same registrable domain (public-suffix aware), or the same host without one', () => {
    const list = raw([
      ['https://shop.example.co.uk/', 'subdomain'],
      ['http://example.co.uk/', 'apex over http'],
      ['https://example.com/', 'other TLD'],
      ['https://another.co.uk/', 'other domain, same suffix'],
    ]);
    expect(selectLinks(list, page, 'internal').map((l) => l.text)).toEqual(['subdomain', 'apex over http']);
    expect(selectLinks(list, page, 'external').map((l) => l.text)).toEqual(['other TLD', 'other domain, same suffix']);
    // Private suffixes count: two github.io sites are different sites.
    expect(siteOf('alice.github.io')).not.toBe(siteOf('bob.github.io'));
    const ip = raw([
      ['http://127.0.0.1:9000/x', 'same ip'],
      ['http://127.0.0.2/x', 'other ip'],
    ]);
    expect(selectLinks(ip, 'http://127.0.0.1:8080/', 'internal').map((l) => l.text)).toEqual(['same ip']);
  });
});

describe('imageSize', () => {
  it('reads a PNG IHDR', () => {
    const png = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(png, 0);
    png.writeUInt32BE(13, 8);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(4321, 20);
    expect(imageSize(png)).toEqual({ width: 640, height: 4321 });
  });
  it('finds the JPEG frame header after other segments', () => {
    const app0 = [0xff, 0xe0, 0x00, 0x04, 0x00, 0x00];
    const sof0 = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c, 0x05, 0x00, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    expect(imageSize(Buffer.from([0xff, 0xd8, ...app0, ...sof0]))).toEqual({ width: 1280, height: 300 });
  });
  it('reads WebP VP8X, VP8L and VP8 headers', () => {
    const riff = (chunk: string, body: number[]) =>
      Buffer.from([...Buffer.from('RIFF'), 0, 0, 0, 0, ...Buffer.from('WEBP'), ...Buffer.from(chunk), 0, 0, 0, 0, ...body, ...Array(20).fill(0)]);
    const vp8x = riff('VP8X', [0, 0, 0, 0, 0xff, 0x04, 0x00, 0x1f, 0x03, 0x00]); // 1280-1, 800-1
    expect(imageSize(vp8x)).toEqual({ width: 1280, height: 800 });
    const bits = (1280 - 1) | ((800 - 1) << 14);
    const vp8l = riff('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >>> 24) & 0xff]);
    expect(imageSize(vp8l)).toEqual({ width: 1280, height: 800 });
    const vp8 = riff('VP8 ', [0, 0, 0, 0x9d, 0x01, 0x2a, 0x00, 0x05, 0x20, 0x03]);
    expect(imageSize(vp8)).toEqual({ width: 1280, height: 800 });
  });
  it('reads a GIF too (image-size knows more formats than the screenshots use), and refuses what is no image', () => {
    expect(imageSize(Buffer.from([...Buffer.from('GIF89a'), 0x80, 0x02, 0xe0, 0x01, ...Array(24).fill(0)]))).toEqual({ width: 640, height: 480 });
    expect(() => imageSize(Buffer.from('plain text that is not an image at all'))).toThrow();
  });
});

describe('htmlToMarkdown (static HTML, no browser)', () => {
  it('uses the article of an article page and drops the chrome', () => {
    const { markdown, title, source } = htmlToMarkdown(ARTICLE_HTML, 'Growing Tomatoes at Home');
    expect(source).toBe('article');
    expect(title).toBe('Growing Tomatoes at Home');
    expect(markdown).not.toMatch(/^# Growing Tomatoes at Home\n/);
    expect(markdown).toContain('| Variety | Type | Days to harvest |\n| --- | --- | --- |');
    expect(markdown).toContain('| Roma | Paste \\| sauce | 75 |');
    expect(markdown).toContain('```python\ndef weekly_water_litres');
    for (const chrome of ['We use cookies', 'About us', 'Popular posts', 'All rights reserved']) expect(markdown).not.toContain(chrome);
  });
  it('falls back to the cleaned body when Readability would keep only a sliver', () => {
    const { markdown, source } = htmlToMarkdown(LISTING_HTML, 'Plant catalogue');
    expect(source).toBe('page');
    for (const card of ['Basil', 'Mint', 'Thyme']) expect(markdown).toContain(`### ${card}`);
    expect(markdown).not.toContain('Catalogue footer');
    expect(markdown).not.toContain('[Home]');
  });
  it('keeps code languages from the usual class conventions and picks a fence longer than the code', () => {
    const html = `<body><pre class="highlight-source-rust"><code>fn main() {}</code></pre><div class="highlight-source-go"><pre>package main</pre></div><pre data-lang="sh">echo hi</pre><pre><code class="lang-ts">const s = \`\`\`;</code></pre><pre>plain</pre></body>`;
    const { markdown } = htmlToMarkdown(html, '');
    expect(markdown).toContain('```rust\nfn main() {}\n```');
    expect(markdown).toContain('```go\npackage main\n```');
    expect(markdown).toContain('```sh\necho hi\n```');
    expect(markdown).toContain('````ts\nconst s = ```;\n````');
    expect(markdown).toContain('```\nplain\n```');
  });
  it('turns a table without a header row into a GFM table and unwraps layout tables', () => {
    const html =
      '<body><table><tbody><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>line<br>two</td></tr></tbody></table><table><tr><td><table><tr><td>inner</td></tr></table></td></tr></table></body>';
    const { markdown } = htmlToMarkdown(html, '');
    expect(markdown).toContain('| a | b |\n| --- | --- |\n| 1 | line two |');
    expect(markdown).toContain('inner');
  });
});

describe('Slots', () => {
  it('grants in FIFO order and lets a queued waiter give up', async () => {
    const slots = new Slots(1);
    await slots.acquire();
    const order: string[] = [];
    const controller = new AbortController();
    const a = slots.acquire().then(() => order.push('a'));
    const b = slots.acquire(controller.signal).then(
      () => order.push('b'),
      () => order.push('b gave up'),
    );
    const c = slots.acquire().then(() => order.push('c'));
    expect(slots.queued).toBe(3);
    controller.abort(new Error('cancelled'));
    await b;
    slots.release();
    await a;
    slots.release();
    await c;
    expect(order).toEqual(['b gave up', 'a', 'c']);
    expect(slots.active).toBe(1);
  });
});

describe('keptDocument (the page that loaded, shown again)', () => {
  it('adds the page URL as base right after <head> and drops a meta refresh, whatever its quoting', () => {
    const html =
      '<!doctype html><html><head><meta charset="utf-8"><META HTTP-EQUIV=Refresh CONTENT="0; url=/elsewhere"><title>T</title></head><body><a href="x">x</a></body></html>';
    const out = keptDocument(html, 'https://example.com/a/b?q=1&r="2"');
    expect(out).toContain('<head><base href="https://example.com/a/b?q=1&amp;r=&quot;2&quot;"><meta charset="utf-8"><title>T</title>');
    expect(out).not.toMatch(/refresh/i);
  });

  it("keeps the page's own base, and adds none for a page without an http(s) URL", () => {
    expect(keptDocument('<head><base href="https://cdn.example/"></head>', 'https://example.com/')).toBe('<head><base href="https://cdn.example/"></head>');
    expect(keptDocument('<p>html input</p>', 'about:blank')).toBe('<p>html input</p>');
    expect(keptDocument('<p>no head</p>', 'https://example.com/')).toBe('<base href="https://example.com/"><p>no head</p>');
  });
});

describe('isNavigationError', () => {
  it("recognises Playwright's words for a document that went away, and nothing else", () => {
    expect(isNavigationError(new Error('page.evaluate: Execution context was destroyed, most likely because of a navigation'))).toBe(true);
    expect(isNavigationError(new Error('frame.evaluate: Frame was detached'))).toBe(true);
    expect(isNavigationError(new Error('page.evaluate: Target page, context or browser has been closed'))).toBe(false);
    expect(isNavigationError(new Error('page.evaluate: TypeError: x is not a function'))).toBe(false);
  });
});
