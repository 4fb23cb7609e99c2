// `agent-utility call` for a newcomer: the MCP name gets the dotted one suggested, and --help lists fields.
import { describe, expect, it } from 'vitest';
import { checkToolName, toolHelp } from '../../src/cli/tool-help.js';

describe('call tool names and help', () => {
  it('suggests the dotted name for an MCP name', async () => {
    await expect(checkToolName('dns_lookup')).rejects.toThrow('Did you mean "dns.lookup"?');
    await expect(checkToolName('dns.lookup')).resolves.toBeUndefined();
    await expect(checkToolName('no.such_tool')).resolves.toBeUndefined();
  });

  it('lists every input field with whether it is required', async () => {
    const help = await toolHelp('dns.lookup');
    expect(help).toMatch(/--domain <string>\s+\(required\)/);
    expect(help).toMatch(/--record_type <"A" \| "AAAA"/);
    expect(help).toMatch(/Example: agent-utility call dns\.lookup --domain/);
    expect(await toolHelp('no.such_tool')).toBeUndefined();
  });
});
