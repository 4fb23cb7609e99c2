// DNS resolver used by every tool that resolves names (dns.lookup, email.verify, the network guard).
// DNS_SERVERS ("host:port,…") points it at specific servers; otherwise the system's resolvers.
import { Resolver } from 'node:dns/promises';
import { defineService } from '../registry/services.js';

export interface ResolverOptions {
  servers?: string[] | undefined;
  timeoutMs?: number;
  tries?: number;
}

export function createResolver(opts: ResolverOptions = {}): Resolver {
  const resolver = new Resolver({ timeout: opts.timeoutMs ?? 3000, tries: opts.tries ?? 2 });
  if (opts.servers && opts.servers.length > 0) resolver.setServers(opts.servers.map(toResolverAddress));
  return resolver;
}

/** "127.0.0.1:5353" and "[::1]:53" as node's setServers expects them; a bare host keeps port 53. */
export function toResolverAddress(server: string): string {
  return server.trim();
}

export const resolverService = defineService({
  name: 'dns-resolver',
  create: ({ config }) => createResolver({ servers: config.net.dnsServers }),
  dispose: (r) => r.cancel(),
});
