// Prices that depend on the input (a tool's priceFor), on SQLite and PostgreSQL: site.page costs a browser
// page with render: true and a plain fetch without; a key is charged the input's price, a batch the sum of
// its items' prices, and every listing shows both. Workers are off: charges happen when tasks are created.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildToolDefinitions } from '../../src/mcp/tool-definitions.js';
import { api, startTestService, type TestService } from '../support/service.js';
import { serviceBackends as backends } from '../support/store-factories.js';

const URL_ = 'http://127.0.0.1:9/page';

describe.each(backends)('input-dependent prices ($name)', ({ env }) => {
  let svc: TestService;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const b = await env();
    drop = b.drop;
    svc = await startTestService({ ...b.env, NETWORK_ALLOWLIST: '127.0.0.1/32' }, { workers: false });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await drop?.();
  });

  const balance = async (id: string) => (await svc.rt.store.findKey(id))!.balanceMicros;

  it('charges a key the render price for render: true and the plain price otherwise', async () => {
    const { key, id } = await svc.createKey(1);
    const rendered = await api(svc.url, 'POST', '/v1/tools/site.page/tasks', { token: key, body: { url: URL_, render: true } });
    expect(rendered.status).toBe(202);
    expect(rendered.body.price_usd).toBe('0.003');
    expect(await balance(id)).toBe(1_000_000 - 3_000);
    const plain = await api(svc.url, 'POST', '/v1/tools/site.page/tasks', { token: key, body: { url: URL_ } });
    expect(plain.status).toBe(202);
    expect(plain.body.price_usd).toBe('0.001');
    expect(await balance(id)).toBe(1_000_000 - 4_000);
    expect((await svc.rt.engine.get(rendered.body.task_id))!.priceMicros).toBe(3_000);
  });

  it('refuses a key that holds the plain price but not the render price, naming the price', async () => {
    const { key, id } = await svc.createKey(0.002);
    const r = await api(svc.url, 'POST', '/v1/tools/site.page/tasks', { token: key, body: { url: URL_, render: true } });
    expect(r.status).toBe(402);
    expect(r.body.code).toBe('INSUFFICIENT_CREDITS');
    expect(r.body.price_usd).toBe('0.003');
    expect(await balance(id)).toBe(2_000);
  });

  it('charges a batch mixing render: true and false the sum of its items', async () => {
    const { key, id } = await svc.createKey(1);
    const inputs = [
      { url: `${URL_}/1`, render: true },
      { url: `${URL_}/2` },
      { url: `${URL_}/3`, render: true },
      { url: `${URL_}/2` }, // the same input as row 2: one task, charged once
    ];
    const r = await api(svc.url, 'POST', '/v1/tools/site.page/batches', { token: key, body: { inputs } });
    expect(r.status).toBe(202);
    expect(r.body.price_usd).toBe('0.007');
    expect(await balance(id)).toBe(1_000_000 - 7_000);
  });

  it('a bad render field is refused naming it, before any charge', async () => {
    const { key, id } = await svc.createKey(1);
    const r = await api(svc.url, 'POST', '/v1/tools/site.page/tasks', { token: key, body: { url: URL_, render: 'yes' } });
    expect(r.status).toBe(400);
    expect(r.body.field).toBe('render');
    expect(r.body.error).toMatch(/render/);
    expect(await balance(id)).toBe(1_000_000);
  });

  it('lists both prices: /v1/tools, OpenAPI, MCP tools/list and the A2A card', async () => {
    const tools = await api(svc.url, 'GET', '/v1/tools');
    const page = tools.body.tools.find((t: { name: string }) => t.name === 'site.page');
    expect(page.price).toMatchObject({ usd: '0.001', micro_usd: 1_000, rule: '0.003 USD with render: true' });
    const crawl = tools.body.tools.find((t: { name: string }) => t.name === 'site.crawl');
    expect(crawl.price.rule).toMatch(/x402 prepays limit pages/);
    const plain = tools.body.tools.find((t: { name: string }) => t.name === 'dns.lookup');
    expect(plain.price.rule).toBeUndefined();
    const openapi = await api(svc.url, 'GET', '/openapi.json');
    expect(openapi.body.paths['/v1/tools/site.page/tasks'].post.summary).toContain('0.001 USD (0.003 USD with render: true)');
    const mcp = buildToolDefinitions(svc.rt.engine.registry).find((t) => t.name === 'site_page')!;
    expect(mcp.description).toContain('Price: 0.001 USD per call (0.003 USD with render: true).');
    const card = await api(svc.url, 'GET', '/.well-known/agent-card.json');
    const skill = card.body.skills.find((s: { id: string }) => s.id === 'site.page');
    expect(skill.description).toContain('Price: 0.001 USD (0.003 USD with render: true).');
  });
});
