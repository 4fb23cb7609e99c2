// Configuration is read once and fails listing every bad variable; the logger redacts secrets.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger, redact } from '../../src/logger.js';

describe('config', () => {
  it('has documented defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.host).toBe('127.0.0.1');
    expect(c.publicUrl).toBe('http://127.0.0.1:8080');
    expect(c.engine.retentionMs).toBe(7 * 86_400_000);
    expect(c.net.allowlist).toEqual([]);
    expect(c.x402.network).toBe('eip155:8453');
    expect(c.http.server).toEqual({ requestTimeoutMs: 120_000, headersTimeoutMs: 30_000, keepAliveTimeoutMs: 65_000, maxConnections: 0 });
  });

  it('refuses a headers deadline longer than the whole request deadline', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must be at most HTTP_REQUEST_TIMEOUT_MS/,
    );
  });

  it('fails fast listing every bad variable with the expected form', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', X402_PAY_TO: '0x12', SECRET: 'short' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.join('\n');
    for (const v of ['PORT', 'DATABASE_URL', 'X402_PAY_TO', 'SECRET']) expect(problems).toContain(v);
    expect(problems).toMatch(/postgres:\/\//);
  });

  it('treats empty strings as unset and parses lists', () => {
    const c = loadConfig({ PORT: '', DNS_SERVERS: '127.0.0.1:5353, [::1]:53', PUBLIC_URL: 'https://api.example.com/' });
    expect(c.port).toBe(8080);
    expect(c.net.dnsServers).toEqual(['127.0.0.1:5353', '[::1]:53']);
    expect(c.publicUrl).toBe('https://api.example.com');
  });
});

describe('logger', () => {
  it('redacts keys, poll tokens and secret headers', () => {
    const out = redact({
      msg: 'key sk_live_abcdefghijklmnopqrstuvwxyz0123 used',
      authorization: 'Bearer sk_live_x',
      nested: { 'payment-signature': 'eyJ...', token: 'pt_eyJhbGciOi.abc.def' },
    }) as Record<string, any>;
    expect(JSON.stringify(out)).not.toMatch(/abcdefghij|eyJhbGciOi|eyJ\.\.\./);
    expect(out.authorization).toBe('[redacted]');
  });

  it('writes JSON lines at or above its level only', () => {
    const lines: string[] = [];
    const log = createLogger('warn', { app: 'x' }, (l) => lines.push(l));
    log.info('hidden');
    log.warn('shown', { n: 1 });
    log.child({ task: 't1' }).error('child');
    expect(lines.map((l) => JSON.parse(l))).toMatchObject([
      { level: 'warn', msg: 'shown', app: 'x', n: 1 },
      { level: 'error', msg: 'child', task: 't1' },
    ]);
  });
});
