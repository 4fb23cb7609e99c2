// The tools/list the production registry (tools/index.ts) produces, read by the official SDK client over
// an in-memory transport: lean enough for every client's context (under 25,000 characters for all tools,
// output schemas included) and well-formed for each tool as it is registered.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../../src/web/caller.js';
import { buildMcpServer } from '../../src/mcp/server.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { artifactStoreService } from '../../src/artifacts/service.js';
import { tools as registered } from '../../tools/index.js';
import { testConfig } from '../support/tool-context.js';

/**
 * Budget for the whole tools/list result (all 13 tools, output schemas included), in characters. 25,500
 * since browser.markdown reads documents (issue 28: its pages, page_breaks and document fields).
 */
const TOOLS_LIST_BUDGET = 25_500;

let rt: Runtime;
let client: Client;
let listJson: string;

beforeAll(async () => {
  rt = await createRuntime(testConfig({ WORKERS: 'false' }));
  const server = buildMcpServer({
    engine: rt.engine,
    registry: rt.registry,
    config: rt.config,
    log: rt.log,
    caller: localCaller('test'),
    artifacts: () => rt.scope.use(artifactStoreService),
    cancelOnAbort: true,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'size-check', version: '1' });
  await client.connect(clientSide);
  listJson = JSON.stringify(await client.listTools());
});

afterAll(async () => {
  await client?.close();
  await rt?.close();
});

describe('tools/list of the registered tools', () => {
  it(`stays under ${TOOLS_LIST_BUDGET} characters in total`, () => {
    const perTool = JSON.parse(listJson).tools.map((t: { name: string }) => `${t.name}: ${JSON.stringify(t).length}`);
    expect(listJson.length, `tools/list is ${listJson.length} characters (${perTool.join(', ')})`).toBeLessThan(TOOLS_LIST_BUDGET);
  });

  it('lists every registered tool exactly once, under its underscore name', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(registered.map((t) => t.name.replace(/\./g, '_')).sort());
  });

  it.each(registered.map((t) => [t.name]))('%s: SPEC name, schemas, price and annotations', async (name) => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === name.replace(/\./g, '_'))!;
    const def = registered.find((t) => t.name === name)!;
    expect(tool.title).toContain(`(${name})`);
    expect(tool._meta).toEqual({ 'agent-utility/tool': name });
    expect(tool.description).toContain(`Price: ${def.price} USD per call.`);
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.outputSchema?.type).toBe('object');
    expect(tool.execution?.taskSupport).toBe('optional');
    if (def.sideEffects) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    } else {
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
  });
});
