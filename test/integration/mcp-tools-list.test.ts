// The tools/list the production registry (tools/index.ts) produces, read by the official SDK client over
// an in-memory transport: lean enough for every client's context (under 32,000 characters for all tools,
// output schemas included), well-formed for each tool as it is registered, every input with its real
// schema, and every published schema (here, /v1/tools and OpenAPI) accepted by a strict validator.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../../src/web/caller.js';
import { ANNOTATION_DEFAULTS, effectiveAnnotations } from '../../src/mcp/lean-annotations.js';
import { buildMcpServer } from '../../src/mcp/server.js';
import { createRuntime, type Runtime } from '../../src/runtime.js';
import { artifactStoreService } from '../../src/artifacts/service.js';
import { tools as registered } from '../../tools/index.js';
import { testConfig } from '../support/tool-context.js';
import { ToolRegistry } from '../../src/registry/registry.js';

type JsonSchema = Record<string, unknown>;

/**
 * Budget for the whole tools/list result (output schemas included), in characters. The 13 tools that came
 * before the site tools stay within 32,000 (issue 28), inputs added since included: issue 30's actions,
 * scroll_to_load and dismiss_overlays, issue 27's metadata fields and the bounded-result inputs all fit
 * because descriptions no longer restate what a name or schema says (35,390 -> 31,871). Only a new tool
 * grows the total, by its own measured size:
 * - the three site tools 5,904 (site_map 2,001 with its bounded-result inputs and fields, site_page 1,600,
 *   site_crawl 2,300, and their commas);
 * - browser.snapshot 3,140 (3,139 and its comma);
 * - input-dependent prices (issue 29), a price rather than words: site_page 30 (" (0.003 USD with render:
 *   true)"), site_crawl 60 (the page prices, and what x402 pays up front, in place of "API key only").
 * The 2026-07-28 list is the same without each tool's `execution` (663 fewer characters in all).
 */
const ORIGINAL_BUDGET = 32_000;
const INPUT_PRICES = 90;
const TOOLS_LIST_BUDGET = ORIGINAL_BUDGET + 5_904 + 3_140 + INPUT_PRICES;
/** The tools that existed when the 32,000 budget was set. */
const ORIGINAL_TOOLS = [
  'email_verify',
  'dns_lookup',
  'ip_geolocate',
  'geo_locate',
  'url_status',
  'homeservices_search',
  'homeservices_request',
  'browser_screenshot',
  'browser_pdf',
  'browser_content',
  'browser_markdown',
  'browser_scrape',
  'browser_links',
];

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
  it(`stays within ${TOOLS_LIST_BUDGET} characters in total`, () => {
    const perTool = JSON.parse(listJson).tools.map((t: { name: string }) => `${t.name}: ${JSON.stringify(t).length}`);
    expect(listJson.length, `tools/list is ${listJson.length} characters (${perTool.join(', ')})`).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it(`keeps the ${ORIGINAL_TOOLS.length} tools that predate the site tools within ${ORIGINAL_BUDGET} characters`, () => {
    const list = JSON.parse(listJson) as { tools: { name: string }[] };
    const original = list.tools.filter((t) => ORIGINAL_TOOLS.includes(t.name));
    expect(original.map((t) => t.name).sort()).toEqual([...ORIGINAL_TOOLS].sort());
    const size = JSON.stringify({ ...list, tools: original }).length;
    expect(size, `the original tools' tools/list is ${size} characters`).toBeLessThanOrEqual(ORIGINAL_BUDGET);
  });

  it('lists every registered tool exactly once, under its underscore name', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(registered.map((t) => t.name.replace(/\./g, '_')).sort());
  });

  it.each(registered.map((t) => [t.name]))('%s: SPEC name, schemas, price and annotations', async (name) => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === name.replace(/\./g, '_'))!;
    const def = registered.find((t) => t.name === name)!;
    // The dotted name once, in _meta; the title is the tool's own.
    expect(tool.title).toBe(def.title);
    expect(tool._meta).toEqual({ 'agent-utility/tool': name });
    expect(tool.description).toContain(`Price: ${def.price} USD per call`);
    expect(tool.inputSchema.type).toBe('object');
    expect(tool.outputSchema?.type).toBe('object');
    expect(tool.execution?.taskSupport).toBe('optional');
    // Hints equal to the spec's defaults are left out; what a client reads with the defaults applied is the
    // tool's own (destructive and idempotent mean something only for a tool that is not read-only).
    const effective = effectiveAnnotations(tool.annotations);
    expect(effective.openWorldHint).toBe(def.annotations.openWorldHint);
    if (def.sideEffects) {
      expect(effective).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
      expect(def.annotations).toMatchObject({ destructiveHint: false, idempotentHint: false });
    } else {
      expect(effective.readOnlyHint).toBe(true);
      expect(tool.annotations).not.toHaveProperty('idempotentHint');
    }
    for (const [hint, value] of Object.entries(tool.annotations ?? {}))
      expect(value, hint).not.toBe(ANNOTATION_DEFAULTS[hint as keyof typeof ANNOTATION_DEFAULTS]);
  });
});

describe('published schemas', () => {
  it('give every input property of every tool its real schema (no bare {} for page options)', async () => {
    const { tools } = await client.listTools();
    const bare: string[] = [];
    for (const tool of tools) {
      for (const [name, schema] of Object.entries(tool.inputSchema.properties ?? {}) as [string, JsonSchema][]) {
        if (!('type' in schema) && !('anyOf' in schema) && !('enum' in schema)) bare.push(`${tool.name}.${name}`);
      }
    }
    expect(bare).toEqual([]);
    const screenshot = tools.find((t) => t.name === 'browser_screenshot')!;
    const markdown = tools.find((t) => t.name === 'browser_markdown')!;
    for (const tool of [screenshot, markdown]) {
      expect(tool.inputSchema.properties).toMatchObject({
        wait_for: { type: 'string' },
        device: { type: 'string' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        cookies: { type: 'array', items: { type: 'object', required: ['name', 'value'] } },
        block: { type: 'array', items: { enum: ['image', 'media', 'font', 'stylesheet'] } },
      });
    }
    expect(screenshot.inputSchema.properties).toMatchObject({ clip: { type: 'object', required: ['x', 'y', 'width', 'height'] } });
  });

  it('compile under Ajv 2020 strict mode with the standard formats only (tools/list, /v1/tools)', async () => {
    const ajv = new Ajv2020({ strict: true, allErrors: true });
    addFormats.default(ajv);
    const { tools } = await client.listTools();
    const registry = new ToolRegistry(registered);
    const published: [string, JsonSchema][] = [
      ...tools.flatMap((t): [string, JsonSchema][] => [
        [`tools/list ${t.name} input`, t.inputSchema as JsonSchema],
        [`tools/list ${t.name} output`, t.outputSchema as JsonSchema],
      ]),
      ...registry.names.flatMap((n): [string, JsonSchema][] => [
        [`/v1/tools ${n} input`, registry.descriptor(n).input_schema],
        [`/v1/tools ${n} output`, registry.descriptor(n).output_schema],
      ]),
    ];
    const refused: string[] = [];
    for (const [where, schema] of published) {
      try {
        ajv.compile(schema);
      } catch (err) {
        refused.push(`${where}: ${(err as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
    expect(JSON.stringify(published)).not.toMatch(/x-compact|starts_with/);
  });
});
