// The browser tools' page options against the loopback fixture server with real Chromium: waiting for a
// late-rendering app, headers and cookies (and that they stay with their task), device emulation, blocked
// resource types, element and clip captures, PDF header/footer, attribute scraping and the result cache.
// What the server received is the evidence, never how long anything took.
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNearUniform } from '../../src/browser/blank-check.js';
import { decodePng } from '../../src/browser/png-pixels.js';
import { parseOrInvalid } from '../../src/registry/input-errors.js';
import { artifactStoreService } from '../../src/artifacts/service.js';
import content from '../../tools/browser.content.js';
import links from '../../tools/browser.links.js';
import markdown from '../../tools/browser.markdown.js';
import pdf from '../../tools/browser.pdf.js';
import scrape from '../../tools/browser.scrape.js';
import screenshot from '../../tools/browser.screenshot.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';
import { startFixtureServer } from '../support/fixture-server.js';

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
});

async function artifactBytes(fileId: string): Promise<Buffer> {
  const got = await (await h.base.use(artifactStoreService)).get(fileId);
  if (!got) throw new Error(`artifact ${fileId} not stored`);
  return got.body;
}

/** The requests the fixture server saw for exactly this path and query. */
function requestsFor(url: string): { url: string; headers: Record<string, string | string[] | undefined> }[] {
  return h.fixture.requests.filter((r) => r.url === url);
}

describe('waiting for a page that renders after load', () => {
  it('wait_for finds content drawn 800 ms after load', async () => {
    const out = await h.run(scrape, { url: h.siteUrl('/controls/late'), select: { late: '#late' }, wait_for: '#late' });
    expect(out.late).toBe('Late content');
    expect(out.final_url).toBe(h.siteUrl('/controls/late'));
    expect(out.status_code).toBe(200);
  });

  it('fails naming wait_for when the selector never appears', async () => {
    await expect(h.run(content, { url: h.siteUrl('/article?never'), wait_for: '#does-not-exist', timeout_ms: 4000 })).rejects.toThrow(
      /wait_for: no element matched "#does-not-exist"/,
    );
  });

  it('the screenshot waits out a blank page while its DOM is still changing', async () => {
    const out = await h.run(screenshot, { url: h.siteUrl('/controls/late?shot') });
    expect(out.blank).toBe(false);
    expect(isNearUniform(decodePng(await artifactBytes(out.file_id)))).toBe(false);
  });

  it('says blank: true for a page that stays one colour', async () => {
    const out = await h.run(screenshot, { html: '<!doctype html><html><body style="background:#fff"></body></html>' });
    expect(out.blank).toBe(true);
  });

  it('delay_ms gives the page extra time after load', async () => {
    const out = await h.run(scrape, { url: h.siteUrl('/controls/late?delay'), select: { late: '#late' }, delay_ms: 3000 });
    expect(out.late).toBe('Late content');
  });
});

describe('headers and cookies', () => {
  it('arrive at the server and are not carried over to the next task', async () => {
    const out = await h.run(content, {
      url: h.siteUrl('/controls/echo?with'),
      headers: { 'X-Test-Token': 'token-1', 'Accept-Language': 'de-DE' },
      cookies: [
        { name: 'session', value: 'abc123' },
        { name: 'pref', value: 'dark', url: h.siteUrl('/') },
      ],
    });
    expect(out.status_code).toBe(200);
    const [withOptions] = requestsFor('/controls/echo?with');
    expect(withOptions?.headers['x-test-token']).toBe('token-1');
    expect(withOptions?.headers['accept-language']).toBe('de-DE');
    expect(withOptions?.headers.cookie).toContain('session=abc123');
    expect(withOptions?.headers.cookie).toContain('pref=dark');
    expect(out.html).toContain('session=abc123');

    // The next task, on the same pool, sends none of it.
    await h.run(content, { url: h.siteUrl('/controls/echo?without') });
    const [next] = requestsFor('/controls/echo?without');
    expect(next).toBeDefined();
    expect(next?.headers['x-test-token']).toBeUndefined();
    expect(next?.headers.cookie).toBeUndefined();
    expect(next?.headers['accept-language']).not.toBe('de-DE');
  });

  it("go only to the page's own origin: not to another host's or port's sub-resources and frames, nor across a redirect", async () => {
    const other = await startFixtureServer();
    try {
      const otherHost = `http://www.site.fixture.test:${h.fixture.port}`;
      const otherPort = `http://site.fixture.test:${other.port}`;
      const secrets = { headers: { Authorization: 'Bearer caller-secret', 'X-Test-Token': 'token-3p' }, cookies: [{ name: 'sid', value: 'cookie-3p' }] };
      await h.run(content, { url: h.siteUrl(`/controls/third-party?a=${encodeURIComponent(otherHost)}&b=${encodeURIComponent(otherPort)}`), ...secrets });
      const [main] = h.fixture.requests.filter((r) => r.url.startsWith('/controls/third-party?'));
      expect(main?.headers.authorization).toBe('Bearer caller-secret');
      expect(main?.headers.cookie).toBe('sid=cookie-3p');
      const foreignHost = h.fixture.requests.filter((r) => r.url.includes('?third-') && r.headers.host === `www.site.fixture.test:${h.fixture.port}`);
      expect(foreignHost.map((r) => r.url).sort()).toEqual(['/controls/echo?third-frame', '/controls/img.png?third-img']);
      for (const r of foreignHost) {
        expect(r.headers.authorization).toBeUndefined();
        expect(r.headers['x-test-token']).toBeUndefined();
        expect(r.headers.cookie).toBeUndefined();
      }
      const foreignPort = other.requests.filter((r) => r.url.includes('?third-'));
      expect(foreignPort.map((r) => r.url)).toEqual(['/controls/none.js?third-script']);
      expect(foreignPort[0]!.headers.authorization).toBeUndefined();
      expect(foreignPort[0]!.headers['x-test-token']).toBeUndefined();

      // A redirect to another origin does not take them along.
      await h.run(content, { url: h.siteUrl(`/redirect-to?url=${encodeURIComponent(`${otherPort}/controls/echo?cross-origin-hop`)}`), ...secrets });
      const hop = other.requests.find((r) => r.url === '/controls/echo?cross-origin-hop');
      expect(hop).toBeDefined();
      expect(hop!.headers.authorization).toBeUndefined();
      expect(hop!.headers['x-test-token']).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('refuses a cookie for another host and headers with html input, naming the field', () => {
    expect(() => parseOrInvalid(content.input, { url: 'https://a.example/', cookies: [{ name: 'x', value: 'y', domain: 'b.example' }] })).toThrow(
      /cookies\.0\.domain: must be the page's own host \(a\.example\)/,
    );
    expect(() => parseOrInvalid(content.input, { url: 'https://a.example/', cookies: [{ name: 'x', value: 'y', url: 'https://sub.a.example/' }] })).toThrow(
      /cookies\.0\.url/,
    );
    expect(() => parseOrInvalid(pdf.input, { html: '<p>x</p>', headers: { 'X-A': 'b' } })).toThrow(/^headers: needs url input/);
  });

  it('user_agent replaces the browser user agent', async () => {
    const out = await h.run(scrape, { url: h.siteUrl('/controls/device?ua'), select: { ua: '#ua' }, user_agent: 'AgentUtilityTest/1.0' });
    expect(out.ua).toBe('AgentUtilityTest/1.0');
    expect(requestsFor('/controls/device?ua')[0]?.headers['user-agent']).toBe('AgentUtilityTest/1.0');
  });

  it('refuses Host, hop-by-hop and proxy headers naming the field', () => {
    for (const name of ['Host', 'Connection', 'Transfer-Encoding', 'Proxy-Authorization']) {
      expect(() => parseOrInvalid(content.input, { url: 'https://example.com/', headers: { [name]: 'x' } })).toThrow(new RegExp(`headers\\.${name}`));
    }
  });
});

describe('device emulation', () => {
  it('a named device sets viewport, user agent and pixel size (CSS px x scale factor)', async () => {
    const info = await h.run(scrape, { url: h.siteUrl('/controls/device?iphone'), select: { width: '#width', dpr: '#dpr', ua: '#ua' }, device: 'iPhone 13' });
    expect(info).toMatchObject({ width: '390', dpr: '3' });
    expect(info.ua).toMatch(/iPhone/);
    const shot = await h.run(screenshot, { url: h.siteUrl('/controls/device?iphone-shot'), device: 'iPhone 13' });
    expect([shot.width, shot.height]).toEqual([390 * 3, 664 * 3]);
  });

  it('device_scale_factor multiplies the image size', async () => {
    const shot = await h.run(screenshot, { url: h.siteUrl('/controls/box?dsf'), width: 400, height: 300, device_scale_factor: 2 });
    expect([shot.width, shot.height]).toEqual([800, 600]);
    const png = decodePng(await artifactBytes(shot.file_id));
    expect([png.width, png.height]).toEqual([800, 600]);
  });

  it('refuses an unknown device and device with device_scale_factor', () => {
    expect(() => parseOrInvalid(screenshot.input, { url: 'https://example.com/', device: 'Nokia 3310' })).toThrow(/device.*not a Playwright device name/);
    expect(() => parseOrInvalid(screenshot.input, { url: 'https://example.com/', device: 'iPhone 13', device_scale_factor: 2 })).toThrow(/device_scale_factor/);
  });
});

describe('block and javascript', () => {
  it('block keeps images and stylesheets from being requested at all', async () => {
    await h.run(content, { url: h.siteUrl('/controls/images?plain') });
    const before = h.fixture.requests.length;
    await h.run(markdown, { url: h.siteUrl('/controls/images?blocked'), block: ['image', 'stylesheet'] });
    const during = h.fixture.requests.slice(before).map((r) => r.url);
    expect(during).toContain('/controls/images?blocked');
    expect(during).not.toContain('/controls/img.png');
    expect(during).not.toContain('/controls/style.css');
    // Without block the same page does load them (the positive control).
    expect(h.fixture.paths).toContain('/controls/img.png');
  });

  it('javascript: false leaves the page as served', async () => {
    const off = await h.run(scrape, { url: h.siteUrl('/controls/noscript'), select: { state: '#state' }, javascript: false });
    const on = await h.run(scrape, { url: h.siteUrl('/controls/noscript'), select: { state: '#state' } });
    expect([off.state, on.state]).toEqual(['static', 'scripted']);
  });
});

describe('screenshot of one element or a rectangle', () => {
  it('selector captures the element at its size', async () => {
    const out = await h.run(screenshot, { url: h.siteUrl('/controls/box'), selector: '#box' });
    expect([out.width, out.height]).toEqual([200, 120]);
    const png = decodePng(await artifactBytes(out.file_id));
    // The element is one blue box, nothing of the page around it.
    expect([...png.rgba.subarray(0, 3)]).toEqual([0, 0x88, 0xff]);
  });

  it('clip captures the rectangle', async () => {
    const out = await h.run(screenshot, { url: h.siteUrl('/controls/box?clip'), clip: { x: 40, y: 30, width: 150, height: 100 } });
    expect([out.width, out.height]).toEqual([150, 100]);
  });

  it('refuses selector with clip and a selector that matches nothing', async () => {
    expect(() => parseOrInvalid(screenshot.input, { url: 'https://example.com/', selector: '#a', clip: { x: 0, y: 0, width: 10, height: 10 } })).toThrow(
      /clip/,
    );
    await expect(h.run(screenshot, { url: h.siteUrl('/controls/box?missing'), selector: '#nothing', timeout_ms: 4000 })).rejects.toThrow(
      /selector: no visible element/,
    );
  });
});

describe('PDF header, footer and page ranges', () => {
  it('prints the header and the footer with page number and total', async () => {
    const out = await h.run(pdf, {
      url: h.siteUrl('/print?pages=2'),
      margins: '1in',
      header_html: '<div style="font-size:10px">HEADER-MARK</div>',
      footer_html: '<div style="font-size:10px">Page <span class="pageNumber"></span> of <span class="totalPages"></span> FOOTER-MARK</div>',
    });
    expect(out.pages).toBe(2);
    const parser = new PDFParse({ data: new Uint8Array(await artifactBytes(out.file_id)) });
    const text = (await parser.getText()).text;
    await parser.destroy();
    expect(text).toContain('HEADER-MARK');
    expect(text).toMatch(/Page 1 of 2 FOOTER-MARK/);
    expect(text).toMatch(/Page 2 of 2 FOOTER-MARK/);
  });

  it('page_ranges prints only the pages asked for', async () => {
    const out = await h.run(pdf, { url: h.siteUrl('/print?pages=3'), page_ranges: '2-3' });
    expect(out.pages).toBe(2);
    expect(() => parseOrInvalid(pdf.input, { url: 'https://example.com/', page_ranges: 'two' })).toThrow(/page_ranges/);
  });

  it('a printed range is numbered in itself: "1 of 3" to "3 of 3", header and footer on every page', async () => {
    const out = await h.run(pdf, {
      url: h.siteUrl('/print?pages=5'),
      page_ranges: '2-4',
      margins: '1in',
      header_html: '<div style="font-size:10px">HEAD <span class="title"></span> <span class="pageNumber"></span></div>',
      footer_html: '<div style="font-size:10px">Page <span class="pageNumber"></span> of <span class="totalPages"></span> RANGE-MARK</div>',
    });
    expect(out.pages).toBe(3);
    const parser = new PDFParse({ data: new Uint8Array(await artifactBytes(out.file_id)) });
    const pages = (await parser.getText()).pages;
    await parser.destroy();
    expect(pages).toHaveLength(3);
    // Page by page (pdf.js's text of each page), so each footer is on its own page and in order.
    const footers = pages.map((p) => /Page (\d+) of (\d+) RANGE-MARK/.exec(p.text)?.slice(1).join('/'));
    expect(footers).toEqual(['1/3', '2/3', '3/3']);
    const title = /HEAD (.*?) (\d+)\s*$/m;
    expect(pages.map((p) => title.exec(p.text)?.[2])).toEqual(['1', '2', '3']);
    expect(title.exec(pages[0]!.text)?.[1]).toBe('Printable');
    // The content is the document's pages 2 to 4, not the first three.
    pages.forEach((p, i) => expect(p.text).toContain(`Printed page ${i + 2}.`));
  });

  it("without page_ranges the header and footer are Chromium's own numbering of the whole document", async () => {
    const out = await h.run(pdf, {
      url: h.siteUrl('/print?pages=3'),
      margins: '1in',
      footer_html: '<div style="font-size:10px">Page <span class="pageNumber"></span> of <span class="totalPages"></span> RANGE-MARK</div>',
    });
    const parser = new PDFParse({ data: new Uint8Array(await artifactBytes(out.file_id)) });
    const text = (await parser.getText()).text;
    await parser.destroy();
    expect([...text.matchAll(/Page (\d+) of (\d+) RANGE-MARK/g)].map((m) => `${m[1]}/${m[2]}`)).toEqual(['1/3', '2/3', '3/3']);
  });
});

describe('scraping attributes', () => {
  it('returns attribute values, always as an array with all: true, and the first match with all: false', async () => {
    const out = await h.run(scrape, {
      url: h.siteUrl('/controls/attrs'),
      select: {
        hrefs: { selector: 'a.x', attr: 'href', all: true },
        logo: { selector: '#logo', attr: 'src' },
        one: { selector: '.one', all: true },
        first: { selector: 'a.x', all: false },
        none: { selector: '.missing', all: true },
      },
    });
    expect(out).toMatchObject({ hrefs: ['/first', 'https://example.org/second'], logo: '/logo.png', one: ['Only one'], first: 'First', none: [] });
  });

  it('refuses reserved names and bad attribute names', () => {
    expect(() => parseOrInvalid(scrape.input, { url: 'https://example.com/', select: { final_url: 'a' } })).toThrow(/select\.final_url/);
    expect(() => parseOrInvalid(scrape.input, { url: 'https://example.com/', select: { a: { selector: 'a', attr: 'bad name' } } })).toThrow(/attr/);
  });
});

describe('final_url and status_code', () => {
  it('report the main document after redirects', async () => {
    const out = await h.run(links, { url: h.siteUrl('/redirect/2') });
    expect(out.final_url).toBe(h.siteUrl('/redirect/0'));
    expect(out.status_code).toBe(200);
  });
});

describe('result cache', () => {
  it('serves an identical request within cache_ttl_s without rendering again', async () => {
    const url = h.siteUrl('/article?cached');
    const first = await h.run(markdown, { url, cache_ttl_s: 600 });
    const second = await h.run(markdown, { url, cache_ttl_s: 600 });
    expect(first.cached).toBeUndefined();
    expect(second.cached).toBe(true);
    expect(second.markdown).toBe(first.markdown);
    expect(requestsFor('/article?cached')).toHaveLength(1);
    // A different option is a different request; cache_ttl_s 0 never reuses.
    await h.run(markdown, { url, cache_ttl_s: 600, content: 'full' });
    await h.run(markdown, { url });
    expect(requestsFor('/article?cached')).toHaveLength(3);
  });

  it('reuses a screenshot (same artifact) and keeps payers apart', async () => {
    const url = h.siteUrl('/controls/box?cached');
    const ctxA = { ...h.context(), payerScope: 'key:key_a' };
    const first = await h.run(screenshot, { url, cache_ttl_s: 60 }, ctxA);
    const again = await h.run(screenshot, { url, cache_ttl_s: 60 }, { ...h.context(), payerScope: 'key:key_a' });
    expect(again).toMatchObject({ cached: true, file_id: first.file_id });
    expect(requestsFor('/controls/box?cached')).toHaveLength(1);
    const otherPayer = await h.run(screenshot, { url, cache_ttl_s: 60 }, { ...h.context(), payerScope: 'key:key_b' });
    expect(otherPayer.cached).toBeUndefined();
    expect(requestsFor('/controls/box?cached')).toHaveLength(2);
  });

  it('refuses cache_ttl_s above 3600', () => {
    expect(() => parseOrInvalid(content.input, { url: 'https://example.com/', cache_ttl_s: 3601 })).toThrow(/cache_ttl_s/);
  });
});

describe('validation of the shared options', () => {
  it.each([
    [{ delay_ms: 10_001 }, /delay_ms/],
    [{ timeout_ms: 10 }, /timeout_ms/],
    [{ block: ['script'] }, /block/],
    [{ cookies: [{ name: 'a b', value: 'x' }] }, /cookies/],
    [{ cookies: [{ name: 'a', value: 'x', domain: 'example.com', url: 'https://example.com/' }] }, /cookies/],
    [{ wait_for: 'div[' }, /wait_for/],
    [{ headers: { 'X-Ok': 'a\r\nInjected: 1' } }, /headers/],
    [{ user_agent: 'UA\r\nInjected: 1' }, /user_agent/],
  ])('refuses %j', (extra, field) => {
    expect(() => parseOrInvalid(content.input, { url: 'https://example.com/', ...extra })).toThrow(field);
  });

  it('requires domain or url for cookies with html input', () => {
    expect(() => parseOrInvalid(pdf.input, { html: '<p>x</p>', cookies: [{ name: 'a', value: 'b' }] })).toThrow(/cookies\.0\.domain/);
  });
});
