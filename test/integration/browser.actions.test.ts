// Actions, lazy content, overlays and the accessibility snapshot against loopback fixture pages with real
// Chromium. The evidence is what the page shows afterwards and what the fixture server was asked for, never
// how long anything took.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInput } from '../../src/errors.js';
import { ToolRegistry } from '../../src/registry/registry.js';
import content from '../../tools/browser.content.js';
import markdown from '../../tools/browser.markdown.js';
import scrape from '../../tools/browser.scrape.js';
import screenshot from '../../tools/browser.screenshot.js';
import snapshot from '../../tools/browser.snapshot.js';
import { tools } from '../../tools/index.js';
import { PDFParse } from 'pdf-parse';
import { decodePng } from '../../src/browser/png-pixels.js';
import { artifactStoreService } from '../../src/artifacts/service.js';
import { actionPagesHandler } from '../support/action-pages.js';
import { startBrowserHarness, type BrowserHarness } from '../support/browser-harness.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';

let h: BrowserHarness;
let site: LocalServer;
beforeAll(async () => {
  h = await startBrowserHarness();
  site = await startLocalServer({ handler: actionPagesHandler });
});
afterAll(async () => {
  await site?.close();
  await h?.close();
});

const at = (path: string) => `${site.origin}${path}`;
/** The stored bytes behind an artifact's signed URL (…/file_<id>.<ext>?expires=…). */
async function artifact(fileUrl: string): Promise<Buffer> {
  const id = /\/(file_[^/.?]+)/.exec(fileUrl)?.[1];
  const got = id ? await (await h.base.use(artifactStoreService)).get(id) : undefined;
  if (!got) throw new Error(`no artifact behind ${fileUrl}`);
  return got.body;
}
const asked = (prefix: string) => site.requests.filter((r) => r.url.startsWith(prefix)).map((r) => r.url);

describe('a page that needs a click, a typed search and a scroll', () => {
  it('gives the Markdown a reader sees after doing them', async () => {
    const out = await h.run(markdown, {
      url: at('/interactive'),
      content: 'full',
      actions: [
        { type: 'click', selector: '#more' },
        { type: 'fill', selector: '#q', text: 'rye' },
        { type: 'press', key: 'Enter' },
        { type: 'wait', selector: '#found' },
        { type: 'scroll', to: 'bottom' },
      ],
    });
    expect(out.markdown).toContain('The hidden paragraph about sourdough starters.');
    expect(out.markdown).toContain('Results for rye: the rye bread recipe.');
    expect(out.markdown).toContain('The closing paragraph loaded on scroll.');
    expect(out.markdown).not.toContain('Show more');
    expect(out.actions?.map((a) => [a.type, a.ok])).toEqual([
      ['click', true],
      ['fill', true],
      ['press', true],
      ['wait', true],
      ['scroll', true],
    ]);
  });

  it('without actions the Markdown has none of it', async () => {
    const out = await h.run(markdown, { url: at('/interactive?plain'), content: 'full' });
    expect(out.markdown).not.toContain('sourdough');
    expect(out.markdown).not.toContain('Results for');
    expect(out.actions).toBeUndefined();
  });
});

describe('each action type', () => {
  it('press, fill, select, hover, click (all, right button), wait for hidden, evaluate, screenshot', async () => {
    const out = await h.run(scrape, {
      url: at('/controls'),
      select: { tip: '#tip', keys: '#keys', menu: '#menu', items: { selector: '.c', all: true } },
      actions: [
        { type: 'press', key: 'x' },
        { type: 'fill', selector: '#name', text: 'Ada' },
        { type: 'select', selector: '#size', value: 'Large' },
        { type: 'hover', selector: '#hover-me' },
        { type: 'click', selector: '.c', all: true },
        { type: 'click', selector: '#menu', button: 'right' },
        { type: 'evaluate', expression: "document.getElementById('spinner').remove()" },
        { type: 'wait', selector: '#spinner', state: 'hidden' },
        { type: 'wait', milliseconds: 10 },
        { type: 'scroll', amount: 200 },
        { type: 'scroll', selector: '#menu' },
        { type: 'evaluate', expression: "({ name: document.getElementById('name').value, size: document.getElementById('size').value })" },
        { type: 'evaluate', expression: 'new Promise((r) => r([1, 2, 3]))' },
        { type: 'screenshot' },
      ],
    });
    expect(out.keys).toBe('x');
    expect(out.tip).toBe('tip shown');
    expect(out.menu).toBe('context menu opened');
    expect(out.items).toEqual(['clicked', 'clicked', 'clicked']);
    const steps = out.actions!;
    expect(steps).toHaveLength(14);
    expect(steps.every((s) => s.ok)).toBe(true);
    expect(steps[4]!.result).toBe(3);
    expect(steps[6]!.result).toBeNull();
    expect(steps[11]!.result).toEqual({ name: 'Ada', size: 'l' });
    expect(steps[12]!.result).toEqual([1, 2, 3]);
    expect(steps[13]!.file_url).toMatch(/^http/);
  });

  it('fill without a selector types into the focused element', async () => {
    const out = await h.run(content, {
      url: at('/controls?write'),
      actions: [
        { type: 'click', selector: '#name' },
        { type: 'fill', text: 'typed' },
        { type: 'evaluate', expression: "document.getElementById('name').value" },
      ],
    });
    expect(out.actions![2]!.result).toBe('typed');
  });

  it('a failing step fails the task naming its index', async () => {
    await expect(
      h.run(content, {
        url: at('/controls?fail'),
        timeout_ms: 5000,
        actions: [
          { type: 'wait', milliseconds: 1 },
          { type: 'click', selector: '#missing' },
        ],
      }),
    ).rejects.toThrow(/^actions\.1 \(click\): no usable element matched "#missing"/);
    await expect(h.run(content, { url: at('/controls?throw'), actions: [{ type: 'evaluate', expression: 'undefinedName.x' }] })).rejects.toThrow(
      /^actions\.0 \(evaluate\): .*undefinedName/,
    );
    await expect(h.run(content, { url: at('/controls?option'), actions: [{ type: 'select', selector: '#size', value: 'Huge' }] })).rejects.toThrow(
      /^actions\.0 \(select\): no option with the value or label "Huge"/,
    );
  });

  it('an evaluate result over the size cap fails the step', async () => {
    await expect(h.run(content, { url: at('/controls?big'), actions: [{ type: 'evaluate', expression: "'x'.repeat(100000)" }] })).rejects.toThrow(
      /^actions\.0 \(evaluate\): the result is 100002 characters of JSON, more than the 16000-character limit/,
    );
  });
});

describe('scrape and pdf steps', () => {
  it('keep the page as it is at that step: its HTML (inline and as a file) and a printed PDF', async () => {
    const out = await h.run(content, {
      url: at('/interactive?scrape'),
      actions: [{ type: 'scrape' }, { type: 'click', selector: '#more' }, { type: 'scrape' }, { type: 'pdf', size: 'a4' }],
    });
    const [before, , after, printed] = out.actions!;
    const html = (step: typeof before) => (step!.result as { html: string }).html;
    expect(before!.result).toMatchObject({ url: at('/interactive?scrape'), title: 'Fixture' });
    expect(html(before)).toContain('id="more"');
    expect(html(before)).toMatch(/<section id="extra" hidden/);
    expect(html(after)).not.toContain('id="more"');
    expect(html(after)).not.toMatch(/<section id="extra" hidden/);
    // The stored file is the same HTML the step reported.
    expect((await artifact(after!.file_url!)).toString()).toBe(html(after));
    expect((after!.result as { bytes: number }).bytes).toBe(Buffer.byteLength(html(after)));
    const pdfBytes = await artifact(printed!.file_url!);
    expect(pdfBytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect((printed!.result as { pages: number }).pages).toBeGreaterThanOrEqual(1);
    const parser = new PDFParse({ data: new Uint8Array(pdfBytes) });
    const text = (await parser.getText()).text;
    await parser.destroy();
    expect(text).toContain('The hidden paragraph about sourdough starters.');
  });
});

describe('final_url after an action navigates', () => {
  it('is the page a clicked link led to, and the capture is that page', async () => {
    const out = await h.run(content, {
      url: at('/link-start'),
      actions: [
        { type: 'click', selector: '#go' },
        { type: 'wait', selector: 'h1' },
      ],
    });
    expect(out.final_url).toBe(at('/link-target?from=start'));
    expect(out.status_code).toBe(200);
    expect(out.html).toContain('The page the link led to.');
    const stay = await h.run(content, { url: at('/link-start?stay'), actions: [{ type: 'hover', selector: '#go' }] });
    expect(stay.final_url).toBe(at('/link-start?stay'));
  });
});

describe('full-page screenshots and images still loading', () => {
  it('wait for an image the server sends late, so it is in the picture', async () => {
    // The image starts loading at the load event, so the page is ready before it arrives; the capture must
    // still show it (solid red, 400×300). Without the wait for images this finds white.
    const out = await h.run(screenshot, { url: at('/slow-image'), full_page: true });
    const png = decodePng(await artifact(out.file_url));
    const rgbaAt = (x: number, y: number) => Array.from(png.rgba.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 3));
    const img = await h.run(content, {
      url: at('/slow-image?where'),
      actions: [{ type: 'evaluate', expression: "(() => { const r = document.getElementById('slow').getBoundingClientRect(); return [r.left, r.top]; })()" }],
    });
    const [left, top] = img.actions![0]!.result as [number, number];
    for (const [dx, dy] of [
      [20, 20],
      [200, 150],
      [380, 280],
    ] as const)
      expect(rgbaAt(Math.round(left + dx), Math.round(top + dy))).toEqual([255, 0, 0]);
    expect(asked('/slow-image.svg').length).toBe(2);
  });
});

describe('validation before the task is accepted', () => {
  const registry = new ToolRegistry(tools);
  const problem = (input: unknown) => {
    try {
      registry.parseInput('browser.content', input);
    } catch (err) {
      if (err instanceof InvalidInput) return { field: err.field, message: err.message };
      throw err;
    }
    return undefined;
  };
  const url = 'https://example.com/';

  it('names the step and field at fault', () => {
    expect(problem({ url, actions: [{ type: 'click', selector: '#a' }, { type: 'click', selector: '#b' }, { type: 'jump' }] })).toEqual({
      field: 'actions.2.type',
      message: 'actions.2.type: must be one of wait, click, fill, press, select, hover, scroll, screenshot, scrape, pdf, evaluate',
    });
    expect(
      problem({
        url,
        actions: [
          { type: 'wait', milliseconds: 5 },
          { type: 'click', selector: 'a[' },
        ],
      })?.field,
    ).toBe('actions.1.selector');
    expect(problem({ url, actions: [{ type: 'click', selector: 'a:bogus' }] })?.message).toBe('actions.0.selector: uses an unknown pseudo-class :bogus');
    expect(problem({ url, actions: [{ type: 'fill', selector: '#q' }] })).toEqual({ field: 'actions.0.text', message: 'actions.0.text: is required' });
    expect(problem({ url, actions: [{ type: 'click', selector: '#q', colour: 'red' }] })).toEqual({
      field: 'actions.0.colour',
      message: 'actions.0.colour: is not a known field',
    });
    expect(problem({ url, actions: [{ type: 'wait' }] })?.message).toBe('actions.0.milliseconds: give exactly one of milliseconds or selector');
    expect(problem({ url, actions: [{ type: 'scroll', amount: 10, to: 'bottom' }] })?.message).toBe('actions.0.to: cannot be combined with amount');
    expect(problem({ url, actions: [{ type: 'press', key: 'Enter; rm' }] })?.field).toBe('actions.0.key');
    expect(problem({ url, javascript: false, actions: [{ type: 'evaluate', expression: '1' }] })?.message).toBe(
      'actions.0.type: evaluate needs javascript: true',
    );
    expect(problem({ url, actions: Array.from({ length: 51 }, () => ({ type: 'wait', milliseconds: 1 })) })?.message).toBe(
      'actions: must have at most 50 items',
    );
    expect(problem({ url, actions: ['click'] })?.field).toBe('actions.0');
    expect(problem({ url, actions: [{ type: 'scrape', selector: 'main' }] })?.field).toBe('actions.0.selector');
    expect(
      problem({
        url,
        actions: [
          { type: 'wait', milliseconds: 1 },
          { type: 'pdf', size: 'tabloid' },
        ],
      })?.field,
    ).toBe('actions.1.size');
  });

  it('accepts every action type in its documented shape', () => {
    expect(
      problem({
        url,
        scroll_to_load: true,
        dismiss_overlays: true,
        actions: [
          { type: 'wait', milliseconds: 100 },
          { type: 'wait', selector: '#x', state: 'hidden' },
          { type: 'click', selector: '#more', all: true, button: 'middle' },
          { type: 'fill', selector: '#q', text: 'hi' },
          { type: 'fill', text: 'hi' },
          { type: 'press', key: 'Control+A' },
          { type: 'select', selector: 'select', value: 'v' },
          { type: 'hover', selector: 'nav a' },
          { type: 'scroll', amount: -300 },
          { type: 'scroll', selector: '#end' },
          { type: 'scroll', to: 'bottom' },
          { type: 'scroll' },
          { type: 'screenshot', full_page: true },
          { type: 'scrape' },
          { type: 'pdf' },
          { type: 'pdf', size: 'a4', landscape: true },
          { type: 'evaluate', expression: 'document.title' },
        ],
      }),
    ).toBeUndefined();
  });
});

describe('scroll_to_load', () => {
  it('brings every batch of an infinite list into the Markdown', async () => {
    // Network quiet, so that the first batch (fetched by the page's script once it runs) is in, and no
    // other batch comes without scrolling: after `load` alone the read races that first fetch.
    const without = await h.run(markdown, { url: at('/infinite?without'), content: 'full', wait: 'idle' });
    const withScroll = await h.run(markdown, { url: at('/infinite?with'), content: 'full', scroll_to_load: true });
    expect(without.markdown).toContain('item 5');
    expect(without.markdown).not.toContain('item 25');
    for (let n = 1; n <= 25; n++) expect(withScroll.markdown).toContain(`item ${n}`);
  });

  it('loads every lazy image before a full-page screenshot', async () => {
    await h.run(screenshot, { url: at('/lazy-images?without'), full_page: true });
    const before = asked('/img/').length;
    await h.run(screenshot, { url: at('/lazy-images?with'), full_page: true, scroll_to_load: true });
    const loaded = asked('/img/').slice(before);
    expect(new Set(loaded).size).toBe(6);
    expect(before).toBeLessThan(6);
  });
});

describe('dismiss_overlays', () => {
  const choices = () => asked('/api/choice');

  it('rejects rather than accepts in a consent dialog, and the story is what remains', async () => {
    const seen = choices().length;
    const out = await h.run(markdown, { url: at('/consent-reject'), content: 'full', dismiss_overlays: true });
    expect(choices().slice(seen)).toEqual(['/api/choice?reject']);
    expect(out.markdown).toContain('The story text a reader came for.');
    expect(out.markdown).not.toContain('We use cookies');
  });

  it('picks "Nur notwendige" over "Alle akzeptieren" in a German cookie bar', async () => {
    const seen = choices().length;
    const out = await h.run(markdown, { url: at('/consent-necessary-de'), content: 'full', dismiss_overlays: true });
    expect(choices().slice(seen)).toEqual(['/api/choice?necessary']);
    expect(out.markdown).not.toContain('Wir verwenden Cookies');
  });

  it('closes a banner that offers only accept, without accepting', async () => {
    const seen = choices().length;
    await h.run(content, { url: at('/consent-close-only'), dismiss_overlays: true });
    expect(choices().slice(seen)).toEqual(['/api/choice?close']);
  });

  it('answers a consent dialog drawn in its own frame, and removes the frame', async () => {
    const seen = choices().length;
    const out = await h.run(content, { url: at('/consent-frame'), dismiss_overlays: true });
    expect(choices().slice(seen)).toEqual(['/api/choice?reject']);
    expect(out.html).not.toContain('cmp-wrap');
  });

  it('removes a full-viewport wall and lets the page scroll, keeping a fixed site header', async () => {
    const out = await h.run(content, {
      url: at('/modal-wall'),
      dismiss_overlays: true,
      actions: [{ type: 'evaluate', expression: 'getComputedStyle(document.body).overflowY' }],
    });
    expect(out.html).not.toContain('id="backdrop"');
    expect(out.html).toContain('id="site-header"');
    expect(out.actions![0]!.result).toBe('visible');
  });

  it('leaves a page without overlays as it is', async () => {
    const out = await h.run(content, { url: at('/controls?overlays'), dismiss_overlays: true });
    expect(out.html).toContain('id="spinner"');
    expect(out.html).toContain('id="menu"');
  });
});

describe('browser.snapshot', () => {
  const html =
    '<!doctype html><title>Shop</title><main><h1>Shop</h1><a href="https://example.com/cart">Cart</a>' +
    '<form id="f"><label>Email <input type="email" value="a@b.c"></label><button>Subscribe</button>' +
    '<label><input type="checkbox" checked> Terms</label></form><button id="reveal" onclick="this.after(Object.assign(document.createElement(\'button\'), {textContent: \'Revealed\'}))">Open</button></main>';

  it('returns the ARIA tree with roles, names, states, values and link targets', async () => {
    const out = await h.run(snapshot, { html });
    expect(out.snapshot).toContain('- heading "Shop" [level=1]');
    expect(out.snapshot).toContain('- button "Subscribe"');
    expect(out.snapshot).toMatch(/- link "Cart":\n\s+- \/url: https:\/\/example\.com\/cart/);
    expect(out.snapshot).toMatch(/- checkbox "Terms" \[checked\]/);
    expect(out.snapshot).toMatch(/- textbox "Email": a@b\.c/);
    expect(out.title).toBe('Shop');
  });

  it('under a selector, after actions', async () => {
    const out = await h.run(snapshot, { html, selector: 'main', actions: [{ type: 'click', selector: '#reveal' }] });
    expect(out.snapshot).toContain('- button "Revealed"');
    const form = await h.run(snapshot, { html, selector: '#f' });
    expect(form.snapshot).not.toContain('Shop');
    expect(form.snapshot).toContain('Subscribe');
  });

  it('is bounded: windows through max_chars and offset via the registry', () => {
    expect(snapshot.bounded).toEqual({ kind: 'text', field: 'snapshot' });
  });
});
