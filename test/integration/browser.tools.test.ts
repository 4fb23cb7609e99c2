// The six browser tools against a loopback fixture server, through one shared pool (one Chromium for the
// file). Images are checked by their bytes (magic, IHDR, alpha) and decoded by Chromium for JPEG/WebP
// sizes; PDFs are parsed with pdf-lib; Markdown is compared with golden files in test/fixtures/markdown.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactStoreService } from '../../src/artifacts/service.js';
import { browserPoolService } from '../../src/browser/service.js';
import screenshot from '../../tools/browser.screenshot.js';
import pdf from '../../tools/browser.pdf.js';
import content from '../../tools/browser.content.js';
import markdown from '../../tools/browser.markdown.js';
import scrape from '../../tools/browser.scrape.js';
import links from '../../tools/browser.links.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';

const GOLDEN_DIR = path.resolve(import.meta.dirname, '../fixtures/markdown');

let h: BrowserHarness;
beforeAll(async () => {
  h = await startBrowserHarness();
});
afterAll(async () => {
  await h?.close();
});

async function artifactBytes(fileId: string): Promise<Buffer> {
  const store = await h.base.use(artifactStoreService);
  const got = await store.get(fileId);
  if (!got) throw new Error(`artifact ${fileId} not stored`);
  return got.body;
}

/** IHDR fields and the RGBA of the top-left pixel, read straight from the PNG bytes. */
function readPng(png: Buffer): { width: number; height: number; colorType: number; bitDepth: number; firstPixel: number[] } {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  for (let i = 8; i < png.length;) {
    const len = png.readUInt32BE(i);
    const type = png.toString('latin1', i + 4, i + 8);
    const data = png.subarray(i + 8, i + 8 + len);
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    i += 12 + len;
  }
  if (!ihdr) throw new Error('no IHDR');
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const channels = ihdr[9] === 6 ? 4 : 3;
  // Row 0, pixel 0: every PNG filter predicts 0 for it, so its bytes follow the filter byte unchanged.
  const firstPixel = [...raw.subarray(1, 1 + channels)];
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), bitDepth: ihdr[8]!, colorType: ihdr[9]!, firstPixel };
}

/** Chromium decodes the image; its natural size is the truth for formats we do not parse here. */
async function decodedSize(bytes: Buffer, mime: string): Promise<{ width: number; height: number }> {
  const { pool } = await h.base.use(browserPoolService);
  return pool.withPage(async (page) => {
    await page.setContent(`<img id="i" src="data:${mime};base64,${bytes.toString('base64')}">`);
    return page.evaluate(async () => {
      const img = document.getElementById('i') as HTMLImageElement;
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight };
    });
  });
}

describe('browser.screenshot', () => {
  it('captures the viewport as PNG with exact dimensions and a working artifact', async () => {
    const out = await h.run(screenshot, { url: h.siteUrl('/article'), width: 800, height: 600 });
    expect(out).toMatchObject({ content_type: 'image/png', width: 800, height: 600, expires_in_days: 1 });
    const png = await artifactBytes(out.file_id);
    expect(out.bytes).toBe(png.length);
    const info = readPng(png);
    expect([info.width, info.height]).toEqual([800, 600]);
    expect(out.file_url).toContain(`/files/${out.file_id}.png?expires=`);
  });

  it('captures the full page height', async () => {
    const out = await h.run(screenshot, { url: h.siteUrl('/tall?h=2345'), width: 500, height: 400, full_page: true });
    const info = readPng(await artifactBytes(out.file_id));
    expect([info.width, info.height]).toEqual([500, 2345]);
    expect(out.height).toBe(2345);
  });

  it('cuts very tall pages at 16384 px', async () => {
    const out = await h.run(screenshot, { url: h.siteUrl('/tall?h=20000'), width: 300, height: 300, full_page: true, format: 'jpeg', quality: 30 });
    expect([out.width, out.height]).toEqual([300, 16384]);
    expect(await decodedSize(await artifactBytes(out.file_id), 'image/jpeg')).toEqual({ width: 300, height: 16384 });
  });

  it('makes a transparent PNG only when asked', async () => {
    const clear = readPng(await artifactBytes((await h.run(screenshot, { url: h.siteUrl('/plain'), width: 320, height: 200, transparent: true })).file_id));
    expect(clear.colorType).toBe(6); // truecolour with alpha
    expect(clear.firstPixel[3]).toBe(0);
    const opaque = readPng(await artifactBytes((await h.run(screenshot, { url: h.siteUrl('/plain'), width: 320, height: 200 })).file_id));
    expect(opaque.colorType === 2 || opaque.firstPixel[3] === 255).toBe(true);
    expect(opaque.firstPixel.slice(0, 3)).toEqual([255, 255, 255]);
  });

  it('encodes JPEG and WebP with their magic bytes and sizes, and quality changes the size', async () => {
    const jpegLow = await h.run(screenshot, { url: h.siteUrl('/tall?h=800'), width: 640, height: 480, format: 'jpeg', quality: 10 });
    const jpegHigh = await h.run(screenshot, { url: h.siteUrl('/tall?h=800'), width: 640, height: 480, format: 'jpeg', quality: 95 });
    const jpeg = await artifactBytes(jpegHigh.file_id);
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(jpegHigh.content_type).toBe('image/jpeg');
    expect(jpegLow.bytes).toBeLessThan(jpegHigh.bytes);
    expect(await decodedSize(jpeg, 'image/jpeg')).toEqual({ width: 640, height: 480 });

    const webp = await h.run(screenshot, { url: h.siteUrl('/article'), width: 700, height: 500, format: 'webp' });
    const bytes = await artifactBytes(webp.file_id);
    expect(bytes.toString('latin1', 0, 4)).toBe('RIFF');
    expect(bytes.toString('latin1', 8, 12)).toBe('WEBP');
    expect(webp).toMatchObject({ content_type: 'image/webp', width: 700, height: 500 });
    expect(await decodedSize(bytes, 'image/webp')).toEqual({ width: 700, height: 500 });
  });

  it('renders html input', async () => {
    const out = await h.run(screenshot, { html: '<body style="margin:0;background:rgb(0,128,0)"><h1>hi</h1></body>', width: 200, height: 100 });
    const info = readPng(await artifactBytes(out.file_id));
    expect([info.width, info.height]).toEqual([200, 100]);
    expect(info.firstPixel.slice(0, 3)).toEqual([0, 128, 0]);
  });
});

describe('browser.pdf', () => {
  // Points (1/72 in) of each paper size, portrait.
  const SIZES: Record<string, [number, number]> = { letter: [612, 792], legal: [612, 1008], a4: [595.28, 841.89], a3: [841.89, 1190.55], a5: [419.53, 595.28] };

  for (const [size, [w, hgt]] of Object.entries(SIZES)) {
    for (const landscape of [false, true]) {
      it(`prints ${size}${landscape ? ' landscape' : ''} at the right size in points`, async () => {
        const out = await h.run(pdf, { url: h.siteUrl('/print?pages=2'), size, landscape, margins: '10mm' });
        const doc = await PDFDocument.load(await artifactBytes(out.file_id));
        expect(out.pages).toBe(doc.getPageCount());
        const page = doc.getPage(0).getSize();
        const [ew, eh] = landscape ? [hgt, w] : [w, hgt];
        expect(Math.abs(page.width - ew)).toBeLessThan(2);
        expect(Math.abs(page.height - eh)).toBeLessThan(2);
      });
    }
  }

  it('reports the real page count', async () => {
    for (const n of [1, 4]) {
      const out = await h.run(pdf, { url: h.siteUrl(`/print?pages=${n}`) });
      const bytes = await artifactBytes(out.file_id);
      expect(bytes.toString('latin1', 0, 5)).toBe('%PDF-');
      expect(out).toMatchObject({ pages: n, content_type: 'application/pdf', bytes: bytes.length, expires_in_days: 1 });
      expect((await PDFDocument.load(bytes)).getPageCount()).toBe(n);
    }
  });

  it('renders html input with backgrounds on or off', async () => {
    const html = '<body style="background:#123456"><p>x</p></body>';
    const withBg = await h.run(pdf, { html, background: true });
    const without = await h.run(pdf, { html, background: false });
    expect(withBg.pages).toBe(1);
    expect(without.pages).toBe(1);
    // The background is drawn as a filled rectangle in that colour (0x12/255 ≈ 0.07059).
    expect((await artifactBytes(withBg.file_id)).length).toBeGreaterThan(0);
    expect(withBg.bytes).not.toBe(without.bytes);
  });
});

describe('browser.content', () => {
  it('returns the DOM after scripts ran, with the title they set', async () => {
    const out = await h.run(content, { url: h.siteUrl('/js-rendered'), wait: 'idle' });
    expect(out.title).toBe('Rendered by script');
    expect(out.html).toContain('<h1>Hello from JavaScript</h1>');
    expect(out.html).not.toContain('static placeholder');
    expect(out.html).toContain('Fetched: from the API');
    expect(out.bytes).toBe(Buffer.byteLength(out.html));
  });

  it('follows a redirect chain', async () => {
    const out = await h.run(content, { url: h.siteUrl('/redirect/4') });
    expect(out.title).toBe('Redirect target');
    expect(out.html).toContain('End of the redirect chain');
  });

  it('handles a huge page', async () => {
    const out = await h.run(content, { url: h.siteUrl('/huge?n=30000') });
    expect(out.bytes).toBeGreaterThan(2_000_000);
    expect(out.html).toContain('Paragraph 29999 of a very long page');
  });

  it('waits for the load event with wait=load, but not with wait=dom', async () => {
    const dom = await h.run(content, { url: h.siteUrl('/slow?id=dom'), wait: 'dom' });
    expect(dom.html).toContain('<p id="state">waiting</p>');
    h.fixture.release('dom');

    const pending = h.run(content, { url: h.siteUrl('/slow?id=load'), wait: 'load' });
    await h.fixture.held('load');
    h.fixture.release('load');
    expect((await pending).html).toContain('<p id="state">loaded</p>');
  });

  it('gives up waiting for network idle at the cap and returns the page', async () => {
    const out = await h.run(content, { url: h.siteUrl('/never-idle'), wait: 'idle' });
    expect(out.title).toBe('Never idle');
  });

  it('dismisses dialogs and closes popups', async () => {
    const out = await h.run(content, { url: h.siteUrl('/dialogs') });
    expect(out.html).toContain('after confirm=false');
    const popup = await h.run(content, { url: h.siteUrl('/popup') });
    expect(popup.html).toContain('opener');
  });

  it('refuses a download as a page', async () => {
    await expect(h.run(content, { url: h.siteUrl('/download') })).rejects.toMatchObject({ name: 'ToolError', kind: 'input' });
  });
});

describe('browser.markdown', () => {
  const golden = (name: string, actual: string) => {
    const file = path.join(GOLDEN_DIR, `${name}.md`);
    const normalised = actual.replaceAll(`http://site.fixture.test:${h.fixture.port}`, 'http://site.fixture.test:PORT');
    if (process.env.UPDATE_GOLDEN === '1') {
      // Comparing the file with what was just written into it would always pass: write, then fail so
      // an update run can never count as a green run.
      const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
      fs.writeFileSync(file, normalised);
      expect.fail(
        before === normalised
          ? `golden ${name}.md unchanged; rerun without UPDATE_GOLDEN`
          : `golden ${name}.md updated; review the diff and rerun without UPDATE_GOLDEN`,
      );
    }
    expect(normalised).toBe(fs.readFileSync(file, 'utf8'));
  };

  it('converts an article page without its chrome (golden)', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/article') });
    expect(out.title).toBe('Growing Tomatoes at Home');
    expect(out.bytes).toBe(Buffer.byteLength(out.markdown));
    golden('article', out.markdown);
  });

  it('converts a page without an article from its cleaned body (golden)', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/listing') });
    golden('listing', out.markdown);
  });

  it('(a) returns a short news item without the comment thread under it', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/md/news-with-comments') });
    expect(out.source).toBe('article');
    expect(out.markdown).toContain('within its budget of 4.2 million euros');
    expect(out.markdown).not.toContain('Comment 3 on the bridge');
    expect(out.bytes).toBeLessThan(800);
  });

  it("(a) content 'full' returns the whole page, comments and navigation included", async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/md/news-with-comments'), content: 'full' });
    expect(out.source).toBe('page');
    expect(out.markdown).toContain('Comment 3 on the bridge');
    expect(out.markdown).toContain(`[Sport](http://site.fixture.test:${h.fixture.port}/sport)`);
  });

  it('(b) keeps a page wrapped in one form', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/md/form-wrapped') });
    expect(out.markdown).toContain('open from nine in the morning');
    expect(out.markdown).toContain('through the slot beside the main entrance');
  });

  it('(c, d) drops skip links made absolute by the page script; the title is a field, not put in front of the body', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/md/skip-link') });
    expect(out.markdown).not.toMatch(/skip/i);
    expect(out.markdown).toContain('Apple trees are pruned');
    expect((out.markdown.match(/Pruning apple trees/g) ?? []).length).toBeLessThanOrEqual(1);
    expect(out.title).toBe('Pruning apple trees');
    expect(out.word_count).toBeGreaterThan(0);
  });

  it('keeps tables, code languages, nested lists, quotes, captions and images with absolute URLs', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/md/structure') });
    expect(out.markdown).toContain('| Area | Before | After |\n| --- | --- | --- |');
    expect(out.markdown).toContain('```toml\n[server]\nport = 8080\n```');
    expect(out.markdown).toMatch(/1\. Convert the configuration:\n\s+- rename keys/);
    expect(out.markdown).toContain('> Streaming was the most requested feature of the year.');
    expect(out.markdown).toContain(`![Streaming pipeline diagram](http://site.fixture.test:${h.fixture.port}/img/diagram.png)`);
    expect(out.markdown).toContain('How a streamed response flows through the service.');
  });

  it('keeps content a page hides until its scripts run, and still drops hidden menus and pop-ups', async () => {
    for (const path of ['/md/hidden-until-script', '/md/article-shown-by-script']) {
      const out = await h.run(markdown, { url: h.siteUrl(path), javascript: false });
      expect(out.markdown, path).toContain('volunteers bought the tower from the state for one euro');
      expect(out.markdown, path).toContain('guided climbs to the gallery');
      expect(out.markdown, path).not.toMatch(/Section number|Subscribe to our newsletter|Share this story/);
    }
    const tab = await h.run(markdown, { url: h.siteUrl('/md/closed-tab'), content: 'full' });
    expect(tab.markdown).toContain('volunteers bought the tower');
    expect(tab.markdown).not.toContain('Visitor review');
  });

  it("reads the page's declarations wherever they stand: JSON-LD and meta tags in the body are not hidden content", async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/md/metadata-in-body') });
    expect(out.byline).toBe('Marta Lindqvist');
    expect(out.published_at).toBe('2024-05-01');
    expect(out.site_name).toBe('Coast News');
    expect(out.excerpt).toBe("Volunteers relit the northern cape's lighthouse.");
    expect(out.markdown).toContain('guided climbs to the gallery');
    expect(out.markdown).not.toContain('NewsArticle');
  });

  it('refuses an unknown content mode', () => {
    expect(markdown.input.safeParse({ url: 'https://example.com/', content: 'everything' }).success).toBe(false);
    expect(markdown.input.parse({ url: 'https://example.com/' }).content).toBe('main');
  });

  it('sees content rendered by JavaScript', async () => {
    const out = await h.run(markdown, { url: h.siteUrl('/js-rendered'), wait: 'idle' });
    expect(`${out.title}\n${out.markdown}`).toContain('Hello from JavaScript');
    expect(out.markdown).toContain('Fetched: from the API');
  });
});

describe('browser.scrape', () => {
  it('returns a string for one match, an array for several, null for none', async () => {
    const out = await h.run(scrape, {
      url: h.siteUrl('/scrape'),
      select: { heading: 'h1', prices: '.price', missing: '.nothing-here', note: '#note', scripted: '#later', firstPrice: 'li.price:first-child' },
    });
    expect(out).toEqual({
      heading: 'Product page',
      prices: ['$10', '$20', '$30'],
      missing: null,
      note: 'Only one note.',
      scripted: 'Added by script',
      firstPrice: '$10',
      final_url: h.siteUrl('/scrape'),
      status_code: 200,
    });
  });
});

describe('browser.links', () => {
  const page = () => h.siteUrl('/links');
  const origin = () => `http://site.fixture.test:${h.fixture.port}`;

  it('lists absolute, de-duplicated http(s) links without fragments or scripts', async () => {
    const out = await h.run(links, { url: page() });
    expect(out.links).toEqual([
      { url: `${origin()}/relative/page`, text: 'Relative' },
      { url: `${origin()}/other.html`, text: 'Sibling' },
      { url: 'http://www.site.fixture.test/abs', text: 'Absolute same site' },
      { url: 'https://blog.fixture.test/post', text: 'Other subdomain' },
      { url: 'http://cdn.external.test/lib.js', text: 'Protocol relative' },
      { url: 'https://external.test/page?q=1', text: 'External with fragment' },
      { url: `${origin()}/img-link`, text: 'Image link' },
      { url: `${origin()}/empty-first`, text: 'Filled later' },
      { url: `${origin()}/area-target`, text: 'Area link' },
    ]);
    expect(out.count).toBe(out.links.length);
  });

  it('filters internal and external by registrable domain', async () => {
    const internal = await h.run(links, { url: page(), filter: 'internal' });
    const external = await h.run(links, { url: page(), filter: 'external' });
    expect(external.links.map((l) => l.url)).toEqual(['http://cdn.external.test/lib.js', 'https://external.test/page?q=1']);
    expect(internal.count).toBe(7);
    expect(internal.links.map((l) => l.url)).toContain('https://blog.fixture.test/post');
  });
});
