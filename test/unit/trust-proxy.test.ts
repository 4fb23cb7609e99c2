// TRUST_PROXY takes a hop count or proxy addresses; "trust everyone" (true) is refused because it lets a
// client write its own address into X-Forwarded-For.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const trust = (v: string | undefined) => loadConfig({ TRUST_PROXY: v, SECRET: 'x'.repeat(40) }).http.trustProxy;

describe('TRUST_PROXY', () => {
  it('defaults to trusting no proxy', () => {
    expect(trust(undefined)).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
  });

  it('takes a hop count or named proxy addresses', () => {
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('loopback')).toEqual(['loopback']);
    expect(trust('loopback, 10.0.0.0/8,192.0.2.7, fd00::/8')).toEqual(['loopback', '10.0.0.0/8', '192.0.2.7', 'fd00::/8']);
  });

  it('refuses true (and its spellings) with a sentence saying what to give instead', () => {
    for (const v of ['true', 'TRUE', 'yes', 'on', 'all', '*']) {
      let err: unknown;
      try {
        trust(v);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).message).toMatch(/TRUST_PROXY: .*client-written X-Forwarded-For.*number of proxies/);
    }
    expect(() => trust('proxy.example.com')).toThrow(/TRUST_PROXY: must be a hop count/);
  });
});
