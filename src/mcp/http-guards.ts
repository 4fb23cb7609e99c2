// DNS-rebinding and cross-origin guards for the MCP HTTP door. A web page on another site must not be able
// to drive a local or internal MCP server through the user's browser: the Host header must name this
// service (PUBLIC_URL's host or a localhost form) and a browser's Origin must be one of those hosts.
import ipaddr from 'ipaddr.js';
import type { Config } from '../config.js';

const LOCAL_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Host names (no port, IPv6 in brackets) this service answers to. */
export function allowedHostnames(config: Pick<Config, 'publicUrl' | 'host'>): Set<string> {
  const hosts = new Set(LOCAL_NAMES);
  hosts.add(new URL(config.publicUrl).hostname.toLowerCase());
  const bound = config.host.toLowerCase();
  if (bound !== '0.0.0.0' && bound !== '::') hosts.add(bound.includes(':') ? `[${bound}]` : bound);
  return hosts;
}

function hostnameOf(hostHeader: string): string | undefined {
  try {
    return new URL(`http://${hostHeader}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function isAllowedHost(hostHeader: string | undefined, hosts: Set<string>): boolean {
  if (!hostHeader) return false;
  const name = hostnameOf(hostHeader);
  return name !== undefined && hosts.has(name);
}

export function isAllowedOrigin(origin: string, hosts: Set<string>): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && hosts.has(url.hostname.toLowerCase());
}

export function isLoopback(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  let ip = ipaddr.parse(address);
  if (ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()) ip = (ip as ipaddr.IPv6).toIPv4Address();
  return ip.range() === 'loopback';
}
