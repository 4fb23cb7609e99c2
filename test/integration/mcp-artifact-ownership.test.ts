// A result whose fields a caller chose (browser.scrape names its keys) must not pass for an artifact: with
// another caller's file_id in it, neither the inline image of tools/call nor resources/read may return
// that file, on either MCP revision. Real service, real artifact store, official SDK clients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectEraClient, CLIENT_KINDS, type EraClient } from '../support/mcp-era-clients.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { mcpTestTools, namedFieldsTool } from '../support/mcp-test-tools.js';
import { testTools } from '../support/test-tools.js';

let svc: McpTestService;
let victimKey: string;
let attackerKey: string;

beforeAll(async () => {
  svc = await startMcpService({ MCP_INLINE_IMAGE_MAX_BYTES: '100000' }, { tools: [...testTools, ...mcpTestTools, namedFieldsTool] });
  ({ key: victimKey } = await svc.createKey(5));
  ({ key: attackerKey } = await svc.createKey(5));
});

afterAll(async () => {
  await svc?.close();
});

const taskIdOf = (r: { _meta?: Record<string, unknown> }) => r._meta?.['agent-utility/task_id'] as string;

describe.each(CLIENT_KINDS)('%s client', (kind) => {
  let victim: EraClient;
  let attacker: EraClient;
  beforeAll(async () => {
    victim = await connectEraClient(kind, { http: svc.mcpUrl, headers: { authorization: `Bearer ${victimKey}` } });
    attacker = await connectEraClient(kind, { http: svc.mcpUrl, headers: { authorization: `Bearer ${attackerKey}` } });
  });
  afterAll(async () => {
    await victim?.close();
    await attacker?.close();
  });

  it("a caller-named file_id in one's own result reads nobody's artifact", async () => {
    const made = await victim.callTool('test_artifact', { bytes: 300 });
    const link = made.structuredContent as { file_id: string; file_url: string; content_type: string };
    expect(made.content.some((c) => c.type === 'image')).toBe(true);

    // A signature the service never made, and none at all: both are only text.
    for (const fileUrl of [link.file_url.replace(/sig=[^&]+/, 'sig=forged'), 'https://attacker.example/x.png']) {
      const forged = await attacker.callTool('test_named_fields', {
        fields: { file_id: link.file_id, content_type: link.content_type, file_url: fileUrl, bytes: '300' },
      });
      expect(forged.isError).toBeFalsy();
      expect(forged.content.map((c) => c.type)).toEqual(['text']);
      const uri = `agent-utility://tasks/${taskIdOf(forged)}/artifact`;
      await expect(attacker.readResource(uri)).rejects.toThrow(/Resource not found.*no artifact/);
    }
  });
});
