// The bot-wall classifier on its own: every wall pattern of the fixture set is a wall and names its
// signals; pages that only mention the words (articles, a site's own 403/404, sign-in and contact forms
// with a captcha) are not.
import { describe, expect, it } from 'vitest';
import { detectBotWall, pageFacts } from '../../src/extract/bot-wall/index.js';
import { PAGE_FIXTURES, WALL_FIXTURES } from '../support/bot-wall-pages.js';

describe('bot-wall classifier', () => {
  it.each(WALL_FIXTURES.map((f) => [f.name, f] as const))('%s is a wall', (_name, f) => {
    const verdict = detectBotWall(f.html, { status: f.status, headers: f.headers ?? {} });
    expect(verdict.wall, verdict.signals.join('; ')).toBe(true);
    expect(verdict.signals.length).toBeGreaterThan(1);
  });

  it.each(PAGE_FIXTURES.map((f) => [f.name, f] as const))('%s is not a wall', (_name, f) => {
    const verdict = detectBotWall(f.html, { status: f.status, headers: f.headers ?? {} });
    expect(verdict.wall, verdict.signals.join('; ')).toBe(false);
  });

  it('names the signals it saw', () => {
    const denied = WALL_FIXTURES.find((f) => f.name.includes('Access Denied'))!;
    const { signals } = detectBotWall(denied.html, { status: denied.status });
    expect(signals).toEqual(expect.arrayContaining(['status 403', 'text "access denied"']));
    expect(signals.some((s) => s.startsWith('reference id "Reference #18.4a3c2f17'))).toBe(true);
  });

  it('a wall page served as the body of an ordinary 200 with a long article is content', () => {
    const article = PAGE_FIXTURES[0]!;
    const withWidget = article.html.replace('</article>', '<iframe src="/captcha/frame"></iframe></article>');
    expect(detectBotWall(withWidget, { status: 200 }).wall).toBe(false);
  });

  it('the same words with a refusal status and a short page are a wall; without the status they are not', () => {
    const html = '<html><head><title>Blocked</title></head><body><p>We detected unusual traffic from your network.</p></body></html>';
    expect(detectBotWall(html, { status: 403 }).wall).toBe(true);
    expect(detectBotWall(html, { status: 200 }).wall).toBe(false);
  });

  it('reads visible text only: scripts, styles and the title do not count as text', () => {
    const facts = pageFacts(
      '<html><head><title>T</title><style>p{color:red}</style></head><body><script>var a = "verify you are human";</script><p>Hello  <b>world</b></p><noscript>Enable JavaScript</noscript></body></html>',
    );
    expect(facts.text).toBe('Hello world');
    expect(facts.title).toBe('T');
    expect(facts.noscriptText).toBe('Enable JavaScript');
  });

  it('stops reading a page once its text is longer than a wall, and still sees a rate limit on a long page', () => {
    const long = `<html><body>${'<p>Plain prose, nothing more.</p>'.repeat(500)}<iframe src="/captcha/frame"></iframe></body></html>`;
    const facts = pageFacts(long, { stopAfterChars: 3_000 });
    expect(facts.textLength).toBeGreaterThan(3_000);
    expect(facts.iframeSrcs).toEqual([]);
    expect(pageFacts(long).iframeSrcs).toEqual(['/captcha/frame']);
    expect(detectBotWall(long, { status: 403 }).wall).toBe(false);
    expect(detectBotWall(long, { status: 429 }).wall).toBe(true);
  });

  it('a challenge header alone decides on a short page, whatever the status; a header that only reports is nothing', () => {
    expect(detectBotWall('<html><body></body></html>', { status: 200, headers: { 'x-bot-manager': 'score=12' } }).wall).toBe(false);
    expect(detectBotWall('<html><body></body></html>', { status: 200, headers: { 'x-bot-protection': 'block' } }).wall).toBe(true);
  });
});
