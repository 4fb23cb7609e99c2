import { describe, expect, it } from 'vitest';
import { allowedHostnames, isAllowedHost, isAllowedOrigin, isLoopback } from '../../src/mcp/http-guards.js';

describe('MCP HTTP guards', () => {
  const hosts = allowedHostnames({ publicUrl: 'https://api.agent-utility.example', host: '0.0.0.0' });

  it('accepts PUBLIC_URL and localhost forms in the Host header, with or without a port', () => {
    for (const h of ['api.agent-utility.example', 'API.agent-utility.example:443', 'localhost:8080', '127.0.0.1:8080', '[::1]:8080']) {
      expect(isAllowedHost(h, hosts), h).toBe(true);
    }
  });

  it('refuses other hosts, a missing Host and the wildcard it binds', () => {
    for (const h of [undefined, '', 'evil.example', 'api.agent-utility.example.evil.example', '0.0.0.0:8080', '10.0.0.5']) {
      expect(isAllowedHost(h, hosts), String(h)).toBe(false);
    }
  });

  it('adds a concrete bind address', () => {
    expect(isAllowedHost('192.168.1.5:8080', allowedHostnames({ publicUrl: 'http://localhost:8080', host: '192.168.1.5' }))).toBe(true);
    expect(isAllowedHost('[fd00::5]:8080', allowedHostnames({ publicUrl: 'http://localhost:8080', host: 'fd00::5' }))).toBe(true);
  });

  it('accepts browser origins on those hosts only', () => {
    expect(isAllowedOrigin('https://api.agent-utility.example', hosts)).toBe(true);
    expect(isAllowedOrigin('http://localhost:5173', hosts)).toBe(true);
    expect(isAllowedOrigin('https://evil.example', hosts)).toBe(false);
    expect(isAllowedOrigin('null', hosts)).toBe(false);
    expect(isAllowedOrigin('file://localhost', hosts)).toBe(false);
  });

  it('knows loopback callers, IPv4-mapped ones included', () => {
    expect(['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['10.0.0.1', '::ffff:10.0.0.1', '2001:db8::1', undefined, 'nonsense'].map(isLoopback)).toEqual([false, false, false, false, false]);
  });
});
