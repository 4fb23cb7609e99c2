// Bounded results through the real service (MCP over streamable HTTP, REST, the engine, Chromium): a text
// tool's answer on a 1 MB page stays far below the 100,000-character goal, and the rest of the result is
// read part by part from the stored task (an MCP resource, or GET /v1/tasks/{id}/result) without the page
// being loaded again.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import browserContent from '../../tools/browser.content.js';
import browserLinks from '../../tools/browser.links.js';
import browserMarkdown from '../../tools/browser.markdown.js';
import browserScrape from '../../tools/browser.scrape.js';
import browserSnapshot from '../../tools/browser.snapshot.js';
import { startBigPageServer, type BigPageServer } from '../support/big-pages.js';
import { browserServiceEnv } from '../support/browser-service-env.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { startMcpService, type McpTestService } from '../support/mcp-service.js';
import { api } from '../support/service.js';

let pages: BigPageServer;
let knot: KnotServer;
let svc: McpTestService;
let key: string;
let client: Client;

beforeAll(async () => {
  pages = await startBigPageServer();
  knot = await startKnot([{ origin: 'fixture.test', records: ['big 300 IN A 127.0.0.1'] }]);
  svc = await startMcpService(
    // Renders of a 1 MB page can outlast the suite's short default lease; a second claim would load it again.
    browserServiceEnv(knot.server, { LEASE_MS: '60000' }),
    { tools: [browserContent, browserLinks, browserMarkdown, browserScrape, browserSnapshot] },
  );
  key = (await svc.createKey(1)).key;
  client = await svc.connect({ key });
}, 60_000);
afterAll(async () => {
  await svc?.close();
  await pages?.close();
  await knot?.stop();
});

const pageUrl = (bytes: number, tag: string) => `http://big.fixture.test:${pages.port}/article?bytes=${bytes}&${tag}`;
const taskIdOf = (r: { _meta?: Record<string, unknown> }) => String(r._meta?.['agent-utility/task_id']);

describe('MCP tools/call of a text tool on a 1 MB page', () => {
  for (const [tool, args] of [
    ['browser_markdown', {}],
    ['browser_content', {}],
    ['browser_links', {}],
    ['browser_scrape', { select: { body: 'body', paragraphs: 'p' } }],
  ] as const) {
    it(`${tool} answers in well under 100,000 characters and says how to go on`, async () => {
      const result = await client.callTool({ name: tool, arguments: { url: pageUrl(1_000_000, tool), ...args } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result).length).toBeLessThan(60_000);
      const s = result.structuredContent as Record<string, unknown>;
      expect(s).toMatchObject({ truncated: true, next_offset: expect.any(Number) as number });
      expect(s.total_chars as number).toBeGreaterThan(40_000);
      const link = (result.content as { type: string; uri?: string }[]).find((c) => c.type === 'resource_link' && c.uri?.includes('/result?'));
      expect(link?.uri).toBe(`agent-utility://tasks/${taskIdOf(result)}/result?offset=${String(s.next_offset)}`);
    });
  }
});

it('reads the whole Markdown part by part from the stored task (MCP resource and REST alike), rendering once', async () => {
  const url = pageUrl(300_000, 'whole');
  const first = await client.callTool({ name: 'browser_markdown', arguments: { url, max_chars: 50_000 } });
  const taskId = taskIdOf(first);
  const loads = pages.hits.get('/article?bytes=300000&whole');
  const s = first.structuredContent as { markdown: string; total_chars: number; next_offset: number | null; approx_tokens: number };
  expect(s.markdown.length).toBeLessThanOrEqual(50_000);
  expect(s.approx_tokens).toBe(Math.ceil(s.markdown.length / 4));
  let markdown = s.markdown;
  let next = s.next_offset;
  while (next !== null) {
    const read = await client.readResource({ uri: `agent-utility://tasks/${taskId}/result?offset=${next}&max_chars=50000` });
    const part = JSON.parse((read.contents[0] as { text: string }).text) as typeof s;
    // The same part over REST, with the key that created the task.
    const rest = await api(svc.url, 'GET', `/v1/tasks/${taskId}/result?offset=${next}&max_chars=50000`, { token: key });
    expect(rest.status).toBe(200);
    expect(rest.body).toEqual(part);
    markdown += part.markdown;
    next = part.next_offset;
  }
  expect(markdown.length).toBe(s.total_chars);
  expect(markdown).toMatch(/^## Section 0\n/);
  expect(markdown).toContain('## Section 200');
  // Continuing loaded nothing again.
  expect(pages.hits.get('/article?bytes=300000&whole')).toBe(loads);
});

it('splits a large accessibility snapshot into parts read back from the stored task, rendering once', async () => {
  const url = pageUrl(200_000, 'snapshot');
  const first = await client.callTool({ name: 'browser_snapshot', arguments: { url, max_chars: 20_000 } });
  expect(first.isError).toBeFalsy();
  const taskId = taskIdOf(first);
  const loads = pages.hits.get('/article?bytes=200000&snapshot');
  const s = first.structuredContent as { snapshot: string; total_chars: number; truncated: boolean; next_offset: number | null; title: string };
  expect(s).toMatchObject({ truncated: true, title: 'Big article' });
  expect(s.snapshot.length).toBeLessThanOrEqual(20_000);
  expect(JSON.stringify(first).length).toBeLessThan(60_000);
  let snapshot = s.snapshot;
  let next = s.next_offset;
  let parts = 1;
  while (next !== null) {
    expect(next).toBe(snapshot.length);
    const read = await client.readResource({ uri: `agent-utility://tasks/${taskId}/result?offset=${next}&max_chars=20000` });
    const part = JSON.parse((read.contents[0] as { text: string }).text) as typeof s;
    snapshot += part.snapshot;
    next = part.next_offset;
    parts++;
  }
  expect(parts).toBeGreaterThan(2);
  expect(snapshot.length).toBe(s.total_chars);
  // The parts join into one whole tree: every section's heading and link, in page order, none twice.
  const headings = [...snapshot.matchAll(/- heading "Section (\d+)" \[level=2\]/g)].map((m) => Number(m[1]));
  expect(headings.length).toBeGreaterThan(100);
  expect(headings).toEqual(headings.map((_, i) => i));
  expect(snapshot).toContain(`- link "a link to part ${headings.length - 1}"`);
  expect(pages.hits.get('/article?bytes=200000&snapshot')).toBe(loads);
});

it('splits Markdown at headings into chunks on request', async () => {
  const result = await client.callTool({ name: 'browser_markdown', arguments: { url: pageUrl(30_000, 'chunks'), chunks: true, max_chars: 5000 } });
  const s = result.structuredContent as { markdown: string; chunks: { heading_path: string[]; start: number; end: number }[]; next_offset: number };
  expect(s.chunks.length).toBeGreaterThan(2);
  // The page's h1 repeats its title, so the article starts at its first section.
  expect(s.chunks[1]!.heading_path).toEqual(['Section 1']);
  expect(s.markdown.slice(s.chunks[1]!.start, s.chunks[1]!.end)).toMatch(/^## Section 1\n\nword7 /);
  expect(s.chunks.at(-1)!.end).toBe(s.next_offset);
});

it('REST: the poll shows the large default window, a bad range names its field, an unfinished task says so', async () => {
  const created = await api(svc.url, 'POST', '/v1/tools/browser.content/tasks', { token: key, body: { url: pageUrl(300_000, 'rest') } });
  expect(created.status).toBe(202);
  const id = String(created.body.task_id);
  const early = await api(svc.url, 'GET', `/v1/tasks/${id}/result`, { token: key });
  if (early.status !== 200) expect(early.body).toMatchObject({ code: 'TASK_NOT_COMPLETE' });
  const polled = await api(svc.url, 'GET', `/v1/tasks/${id}?wait=30`, { token: key });
  expect(polled.body.status).toBe('complete');
  const result = polled.body.result as { html: string; truncated: boolean; total_chars: number };
  expect(result.truncated).toBe(false);
  expect(result.html.length).toBe(result.total_chars);
  const bad = await api(svc.url, 'GET', `/v1/tasks/${id}/result?offset=-1`, { token: key });
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ field: 'offset' });
  const other = await svc.createKey(1);
  expect((await api(svc.url, 'GET', `/v1/tasks/${id}/result`, { token: other.key })).status).toBe(403);
});
