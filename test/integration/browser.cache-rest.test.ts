// The result cache through the real service (REST, engine, worker, artifact store on disk): an identical
// request by the same key within cache_ttl_s is answered from the cache (the page server sees one
// request); the same request by another key renders again, because results are never shared between payers.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { browserServiceEnv } from '../support/browser-service-env.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { api, startTestService, type TestService } from '../support/service.js';

let fixture: FixtureServer;
let knot: KnotServer;
let svc: TestService;

beforeAll(async () => {
  fixture = await startFixtureServer();
  knot = await startKnot([{ origin: 'fixture.test', records: ['site 300 IN A 127.0.0.1'] }]);
  svc = await startTestService(browserServiceEnv(knot.server));
});
afterAll(async () => {
  await svc?.close();
  await fixture?.close();
  await knot?.stop();
});

async function markdownTask(key: string, url: string): Promise<Record<string, unknown>> {
  const created = await api(svc.url, 'POST', '/v1/tools/browser.markdown/tasks', { token: key, body: { url, cache_ttl_s: 600 } });
  expect(created.status).toBe(202);
  for (;;) {
    const polled = await api(svc.url, 'GET', `${created.body.poll_url}?wait=20`, { token: created.body.poll_token });
    if (polled.body.status !== 'pending' && polled.body.status !== 'running') {
      expect(polled.body.status).toBe('complete');
      return polled.body.result as Record<string, unknown>;
    }
  }
}

it('reuses a result for the same payer only', async () => {
  const a = await svc.createKey(1);
  const b = await svc.createKey(1);
  const url = `http://site.fixture.test:${fixture.port}/article?rest-cache`;
  const seen = () => fixture.requests.filter((r) => r.url === '/article?rest-cache').length;

  const first = await markdownTask(a.key, url);
  expect(first.cached).toBeUndefined();
  const again = await markdownTask(a.key, url);
  expect(again).toMatchObject({ cached: true, markdown: first.markdown, final_url: url, status_code: 200 });
  expect(seen()).toBe(1);

  const other = await markdownTask(b.key, url);
  expect(other.cached).toBeUndefined();
  expect(seen()).toBe(2);
});
