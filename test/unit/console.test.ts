// Pure parts of the console: session, CSRF and link tokens; escaping; the Overview series.
import { describe, expect, it } from 'vitest';
import { escapeHtml, html } from '../../src/console/html.js';
import { overviewSeries, quantile } from '../../src/console/overview-series.js';
import { ConsoleSecrets, LINK_TTL_MS, SESSION_TTL_MS } from '../../src/console/session.js';
import { artifactsIn } from '../../src/console/tasks.js';
import { consoleCsp } from '../../src/console/index.js';
import { artifactLinkVerifier } from '../../src/artifacts/verified-link.js';
import { signedFileUrl } from '../../src/artifacts/signed-url.js';
import { testConfig } from '../support/tool-context.js';

const now = Date.UTC(2026, 0, 1, 12, 0, 30);

describe('console secrets', () => {
  const secrets = new ConsoleSecrets('operator-token-0123456789');

  it('compares the operator token exactly', () => {
    expect(secrets.tokenMatches('operator-token-0123456789')).toBe(true);
    expect(secrets.tokenMatches('operator-token-012345678')).toBe(false);
    expect(secrets.tokenMatches('')).toBe(false);
  });

  it('accepts its own session cookie until it expires, and nothing altered or signed with another token', () => {
    const { cookie, session } = secrets.newSession(now);
    expect(secrets.readSession(cookie, now + 1000)).toEqual(session);
    expect(secrets.readSession(cookie, now + SESSION_TTL_MS)).toBeNull();
    const [exp, id, mac] = cookie.split('.');
    expect(secrets.readSession(`${Number(exp) + 1000}.${id}.${mac}`, now)).toBeNull();
    expect(new ConsoleSecrets('another-operator-token-xyz').readSession(cookie, now)).toBeNull();
    expect(secrets.readSession('garbage', now)).toBeNull();
    expect(secrets.readSession(undefined, now)).toBeNull();
  });

  it('binds the CSRF token to the session', () => {
    const a = secrets.newSession(now).session;
    const b = secrets.newSession(now).session;
    expect(secrets.csrfMatches(a, secrets.csrfToken(a))).toBe(true);
    expect(secrets.csrfMatches(a, secrets.csrfToken(b))).toBe(false);
    expect(secrets.csrfMatches(a, undefined)).toBe(false);
  });

  it('signs one-time link tokens that expire, each with its own nonce', () => {
    const t1 = secrets.newLinkToken(now);
    const t2 = secrets.newLinkToken(now);
    expect(secrets.readLinkToken(t1, now)?.nonce).toBeTruthy();
    expect(secrets.readLinkToken(t1, now)?.nonce).not.toBe(secrets.readLinkToken(t2, now)?.nonce);
    expect(secrets.readLinkToken(t1, now + LINK_TTL_MS)).toBeNull();
    expect(new ConsoleSecrets('another-operator-token-xyz').readLinkToken(t1, now)).toBeNull();
    // A session cookie is not a link token (the purpose is part of what is signed).
    expect(secrets.readLinkToken(secrets.newSession(now).cookie, now)).toBeNull();
  });
});

describe('console HTML', () => {
  it('escapes interpolated values but not nested templates', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(html`<p>${'<script>'}${html`<b>${'&'}</b>`}${['<i>', html`<u></u>`]}</p>`.value).toBe('<p>&lt;script&gt;<b>&amp;</b>&lt;i&gt;<u></u></p>');
  });

  it('previews only artifact links the service signed, anywhere in a result', () => {
    const secret = 'a-test-secret-of-at-least-32-characters!';
    const config = { publicUrl: 'http://svc.test:8080', storageUrl: undefined };
    const verify = artifactLinkVerifier(config, secret, () => now);
    const expiresAt = new Date(now + 3_600_000);
    const png = signedFileUrl(config, secret, { fileId: 'file_0123456789ab', contentType: 'image/png', expiresAt });
    const pdf = signedFileUrl(config, secret, { fileId: 'file_abcdefghij01', contentType: 'application/pdf', expiresAt });
    const result = {
      file_id: 'file_0123456789ab',
      file_url: png,
      content_type: 'image/png',
      pages: [{ file_id: 'file_abcdefghij01', file_url: pdf, content_type: 'application/pdf' }],
      // What a caller can put in a result of their own: no signature, a copied one on another host or id,
      // a forged one, an expired link.
      forged: [
        { file_id: 'file_0123456789ab', file_url: 'https://attacker.example/x.png', content_type: 'image/png' },
        { file_id: 'file_0123456789ab', file_url: png.replace('http://svc.test:8080', 'https://attacker.example'), content_type: 'image/png' },
        { file_id: 'file_zzzzzzzzzz01', file_url: png, content_type: 'image/png' },
        { file_id: 'file_0123456789ab', file_url: png.replace(/sig=[^&]+$/, 'sig=AAAA'), content_type: 'image/png' },
        { file_id: 'file_0123456789ab', file_url: png, content_type: 'text/html' },
        {
          file_id: 'file_0123456789ab',
          file_url: signedFileUrl(config, secret, { fileId: 'file_0123456789ab', contentType: 'image/png', expiresAt: new Date(now - 1000) }),
          content_type: 'image/png',
        },
      ],
    };
    expect(artifactsIn(result, verify)).toEqual([
      { url: png, type: 'image/png' },
      { url: pdf, type: 'application/pdf' },
    ]);
  });

  it('lets previews load only from the console and the storage origins', () => {
    const csp = consoleCsp(testConfig({ PUBLIC_URL: 'https://api.example.test', STORAGE_URL: 'https://files.example.test/f' }));
    expect(csp).toContain("img-src 'self' data: blob: https://api.example.test https://files.example.test;");
    expect(csp).toContain("frame-src 'self' https://api.example.test https://files.example.test;");
    expect(csp).not.toMatch(/\*/);
  });
});

describe('overview series', () => {
  it('takes nearest-rank quantiles', () => {
    expect(quantile([], 0.5)).toBeNull();
    expect(quantile([10], 0.95)).toBe(10);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.5)).toBe(5);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.95)).toBe(10);
  });

  it('counts creations, the queue at each minute end, failures and run times by tool', () => {
    const minute = 60_000;
    const end = Math.ceil(now / minute) * minute;
    const at = (minutesBeforeEnd: number, plus = 0) => end - minutesBeforeEnd * minute + plus;
    const rows = [
      // Created 3 minutes before the end, waited two minutes, ran 500 ms.
      { tool: 'a', status: 'complete' as const, createdAt: at(3, 10), startedAt: at(1, 10), finishedAt: at(1, 510) },
      { tool: 'a', status: 'complete' as const, createdAt: at(1, 20), startedAt: at(1, 30), finishedAt: at(1, 1530) },
      { tool: 'b', status: 'failed' as const, createdAt: at(1, 40), startedAt: at(1, 50), finishedAt: at(1, 60) },
      // Still pending, created before the window.
      { tool: 'c', status: 'pending' as const, createdAt: at(120), startedAt: null, finishedAt: null },
    ];
    const s = overviewSeries(rows, now, 5);
    expect(s.times).toEqual([at(4), at(3), at(2), at(1), at(0)].map((t) => t / 1000));
    // Bucket i holds what happened in the minute ending at times[i].
    expect(s.created).toEqual([0, 0, 1, 0, 2]);
    expect(s.queueDepth).toEqual([1, 1, 2, 2, 1]);
    expect(s.failuresByTool).toEqual({ b: [0, 0, 0, 0, 1] });
    expect(s.p50ByTool.a).toEqual([null, null, null, null, 500]);
    expect(s.p95ByTool.a).toEqual([null, null, null, null, 1500]);
  });
});
