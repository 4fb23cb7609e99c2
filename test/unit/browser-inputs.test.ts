// Submission-time checks of the browser tools' inputs: what becomes a 400 and which field it names.
import { describe, expect, it } from 'vitest';
import { zodToInvalidInput } from '../../src/registry/registry.js';
import { selectorProblem } from '../../src/browser/css-selector.js';
import screenshot from '../../tools/browser.screenshot.js';
import pdf from '../../tools/browser.pdf.js';
import scrape from '../../tools/browser.scrape.js';
import links from '../../tools/browser.links.js';
import content from '../../tools/browser.content.js';

/** The page options every browser tool fills in when they are not given (today's behaviour). */
const PAGE_DEFAULTS = { delay_ms: 0, javascript: true, cache_ttl_s: 0 };

function fieldOf(tool: { input: { safeParse(v: unknown): { success: boolean; error?: unknown } } }, input: unknown) {
  const r = tool.input.safeParse(input);
  if (r.success) return { ok: true as const };
  const err = zodToInvalidInput(r.error as never);
  return {
    ok: false as const,
    field: err.field,
    message: err.message,
    paths: (r.error as { issues: { path: PropertyKey[] }[] }).issues.map((i) => i.path.join('.')),
  };
}

describe('url or html: exactly one', () => {
  for (const tool of [screenshot, pdf]) {
    it(`${tool.name} refuses neither, naming both fields`, () => {
      const r = fieldOf(tool, {});
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.paths).toEqual(['url', 'html']);
      expect(r.message).toMatch(/url/);
      expect(r.message).toMatch(/html/);
    });
    it(`${tool.name} refuses both, naming both fields`, () => {
      const r = fieldOf(tool, { url: 'https://example.com/', html: '<p>x</p>' });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.paths).toEqual(['url', 'html']);
      expect(r.message).toMatch(/not both/);
    });
    it(`${tool.name} accepts either alone`, () => {
      expect(fieldOf(tool, { url: 'https://example.com/' }).ok).toBe(true);
      expect(fieldOf(tool, { html: '<p>x</p>' }).ok).toBe(true);
    });
  }

  it('caps html at 2 MB', () => {
    expect(fieldOf(screenshot, { html: 'x'.repeat(2_000_000) }).ok).toBe(true);
    const r = fieldOf(screenshot, { html: 'x'.repeat(2_000_001) });
    expect(r).toMatchObject({ ok: false, field: 'html' });
    // Multi-byte characters count in bytes, not characters.
    expect(fieldOf(screenshot, { html: 'é'.repeat(1_000_001) })).toMatchObject({ ok: false, field: 'html' });
  });

  it('takes only http and https URLs', () => {
    for (const url of ['file:///etc/passwd', 'chrome://version', 'data:text/html,hi', 'javascript:alert(1)', 'ftp://example.com/', 'not a url']) {
      expect(fieldOf(content, { url })).toMatchObject({ ok: false, field: 'url' });
    }
    expect(fieldOf(content, { url: 'http://example.com/' }).ok).toBe(true);
  });
});

describe('browser.screenshot options', () => {
  it('fills the SPEC defaults', () => {
    expect(screenshot.input.parse({ url: 'https://example.com/' })).toEqual({
      url: 'https://example.com/',
      width: 1280,
      height: 800,
      full_page: false,
      format: 'png',
      transparent: false,
      wait: 'load',
      ...PAGE_DEFAULTS,
    });
  });
  it('takes quality only for jpeg and webp', () => {
    expect(fieldOf(screenshot, { url: 'https://example.com/', quality: 50 })).toMatchObject({ ok: false, field: 'quality' });
    expect(fieldOf(screenshot, { url: 'https://example.com/', format: 'jpeg', quality: 50 }).ok).toBe(true);
    expect(fieldOf(screenshot, { url: 'https://example.com/', format: 'webp', quality: 100 }).ok).toBe(true);
    expect(fieldOf(screenshot, { url: 'https://example.com/', format: 'jpeg', quality: 0 })).toMatchObject({ ok: false, field: 'quality' });
    expect(fieldOf(screenshot, { url: 'https://example.com/', format: 'jpeg', quality: 101 })).toMatchObject({ ok: false, field: 'quality' });
  });
  it('takes transparent only for png', () => {
    expect(fieldOf(screenshot, { url: 'https://example.com/', transparent: true }).ok).toBe(true);
    expect(fieldOf(screenshot, { url: 'https://example.com/', format: 'jpeg', transparent: true })).toMatchObject({ ok: false, field: 'transparent' });
    expect(fieldOf(screenshot, { url: 'https://example.com/', format: 'webp', transparent: true })).toMatchObject({ ok: false, field: 'transparent' });
  });
  it('bounds the viewport', () => {
    expect(fieldOf(screenshot, { url: 'https://example.com/', width: 99 })).toMatchObject({ ok: false, field: 'width' });
    expect(fieldOf(screenshot, { url: 'https://example.com/', height: 5000 })).toMatchObject({ ok: false, field: 'height' });
    expect(fieldOf(screenshot, { url: 'https://example.com/', width: 1.5 })).toMatchObject({ ok: false, field: 'width' });
  });
});

describe('browser.pdf options', () => {
  it('fills the SPEC defaults', () => {
    expect(pdf.input.parse({ html: '<p>x</p>' })).toEqual({
      html: '<p>x</p>',
      size: 'letter',
      landscape: false,
      margins: '0.5in',
      background: true,
      scale: 1,
      prefer_css_page_size: false,
      wait: 'load',
      ...PAGE_DEFAULTS,
    });
  });
  it('takes margins as a CSS length', () => {
    for (const ok of ['0', '0.5in', '10mm', '1cm', '36pt', '48px', '3pc', '1.25in']) expect(fieldOf(pdf, { html: 'x', margins: ok }).ok).toBe(true);
    for (const bad of ['', 'abc', '1 in', '-1in', '10%', '1em', '3in', '1in 2in'])
      expect(fieldOf(pdf, { html: 'x', margins: bad })).toMatchObject({ ok: false, field: 'margins' });
  });
  it('knows the five paper sizes', () => {
    for (const size of ['letter', 'a4', 'legal', 'a3', 'a5']) expect(fieldOf(pdf, { html: 'x', size }).ok).toBe(true);
    expect(fieldOf(pdf, { html: 'x', size: 'tabloid' })).toMatchObject({ ok: false, field: 'size' });
  });
});

describe('browser.scrape selectors', () => {
  it('names the key of an invalid selector', () => {
    const r = fieldOf(scrape, { url: 'https://example.com/', select: { title: 'h1', broken: 'div[' } });
    expect(r).toMatchObject({ ok: false, field: 'select.broken' });
    expect(fieldOf(scrape, { url: 'https://example.com/', select: { a: 'p', weird: 'a:no-such-thing' } })).toMatchObject({ ok: false, field: 'select.weird' });
  });
  it("refuses names the service's results use (artifact fields a caller could otherwise forge), naming the field", () => {
    for (const name of ['file_id', 'file_url', 'content_type', 'bytes', 'expires_at', 'final_url', 'status_code', 'cached']) {
      const r = fieldOf(scrape, { url: 'https://example.com/', select: { title: 'h1', [name]: 'p' } });
      expect(r).toMatchObject({ ok: false, field: `select.${name}` });
      expect(r.ok || r.message).toMatch(new RegExp(`^select\\.${name}: "${name}" is a name the service uses in results`));
    }
  });
  it('needs between 1 and 50 selectors', () => {
    expect(fieldOf(scrape, { url: 'https://example.com/', select: {} })).toMatchObject({ ok: false, field: 'select' });
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'p']));
    expect(fieldOf(scrape, { url: 'https://example.com/', select: many })).toMatchObject({ ok: false, field: 'select' });
  });

  const valid = [
    'h1',
    '.price',
    '#main > p:first-child',
    'a[href^="https"]',
    'ul li:nth-child(2n+1)',
    'li:nth-child(2 of .x)',
    'div:has(> img)',
    'a:has(+ b)',
    'p:not(.a, .b)',
    ':is(h1, h2) + p',
    'h1, h2, h3',
    'input:checked ~ label',
    'a::before',
    'table tr:nth-of-type(odd) td',
    '*',
  ];
  const invalid = [
    '',
    '   ',
    'div[',
    'div >',
    '> div',
    'a,',
    ',a',
    'a:hover(',
    'a:nope',
    'li:nth-child(foo)',
    'a:not()',
    'a:first-child(2)',
    'li:nth-child',
    'a >> b',
    'x'.repeat(1001),
  ];
  for (const s of valid) it(`accepts ${JSON.stringify(s)}`, () => expect(selectorProblem(s)).toBeUndefined());
  for (const s of invalid) it(`refuses ${JSON.stringify(s.slice(0, 20))}`, () => expect(selectorProblem(s)).toBeTypeOf('string'));
});

describe('browser.links filter', () => {
  it('defaults to all', () => {
    expect(links.input.parse({ url: 'https://example.com/' })).toEqual({ url: 'https://example.com/', filter: 'all', wait: 'load', ...PAGE_DEFAULTS });
    expect(fieldOf(links, { url: 'https://example.com/', filter: 'mine' })).toMatchObject({ ok: false, field: 'filter' });
  });
});
