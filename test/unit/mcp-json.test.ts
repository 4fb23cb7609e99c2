// mcp.json is what users paste into their MCP client: its entries must start this package's MCP server
// the way the CLI really works, and mention only configuration the service understands.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENV_VARIABLES, loadConfig } from '../../src/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const mcpJson = JSON.parse(fs.readFileSync(path.join(root, 'mcp.json'), 'utf8')) as {
  mcpServers: Record<
    string,
    { command?: string; args?: string[]; env?: Record<string, string>; type?: string; url?: string; headers?: Record<string, string> }
  >;
};
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { name: string; bin: Record<string, string>; files: string[] };

describe('mcp.json', () => {
  const servers = mcpJson.mcpServers;

  it('starts the stdio server with the bin an install of the package puts on the PATH', () => {
    expect(servers['agent-utility']).toMatchObject({ command: pkg.name, args: ['mcp'] });
    expect(pkg.bin[pkg.name]).toBe('dist/src/cli.js');
    expect(pkg.files).toContain('mcp.json');
  });

  it('names the npx form as the one for after publication', () => {
    expect(servers['agent-utility-npx-once-published']).toMatchObject({ command: 'npx', args: ['-y', pkg.name, 'mcp'] });
  });

  it('starts it from a checkout with node and the built CLI', () => {
    const entry = servers['agent-utility-from-source']!;
    expect(entry.command).toBe('node');
    expect(entry.args!.at(-2)!.endsWith(`/${pkg.bin[pkg.name]}`)).toBe(true);
    expect(entry.args!.at(-1)).toBe('mcp');
  });

  it('reaches the HTTP server at /mcp with an API key header', () => {
    const remote = servers['agent-utility-remote']!;
    expect(remote.type).toBe('http');
    expect(new URL(remote.url!).pathname).toBe('/mcp');
    expect(remote.headers?.Authorization).toMatch(/^Bearer sk_live_/);
  });

  it('sets only variables the service reads, with values it accepts', () => {
    const env = Object.assign({}, ...Object.values(servers).map((s) => s.env ?? {})) as Record<string, string>;
    for (const name of Object.keys(env)) expect(ENV_VARIABLES).toContain(name);
    expect(() => loadConfig(env)).not.toThrow();
  });
});
