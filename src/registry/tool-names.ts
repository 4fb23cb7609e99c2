// MCP tool names use underscores (dns_lookup): several clients' model APIs reject dots in function names.
// The dotted name (dns.lookup) stays the real identity; this module maps between the two.
import type { ToolRegistry } from './registry.js';

export function mcpToolName(specName: string): string {
  return specName.replace(/\./g, '_');
}

/** MCP name → dotted name for every tool in the registry; two tools mapping to one MCP name is an error. */
export function mcpNameIndex(registry: ToolRegistry): Map<string, string> {
  const index = new Map<string, string>();
  for (const name of registry.names) {
    const mcpName = mcpToolName(name);
    const taken = index.get(mcpName);
    if (taken) throw new Error(`tools ${taken} and ${name} both map to the MCP name ${mcpName}`);
    index.set(mcpName, name);
  }
  return index;
}

/** Accepts dotted names (dns.lookup) and MCP names (dns_lookup), e.g. in MCP_TOOLS or --tools. */
export function resolveToolNames(registry: ToolRegistry, names: readonly string[]): string[] {
  const index = mcpNameIndex(registry);
  return names.map((n) => {
    if (registry.has(n)) return n;
    const spec = index.get(n);
    if (spec) return spec;
    throw new Error(`Unknown tool "${n}" in the MCP tool allowlist. Known tools: ${registry.names.join(', ')}.`);
  });
}
