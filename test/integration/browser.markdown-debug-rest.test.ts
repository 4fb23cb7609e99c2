// browser.markdown's extraction switches through the real service (REST, engine, browser worker, extraction
// pool): `debug` adds the trace of what each step and rule removed or chose, `off` switches steps off by
// name, and an unknown name is refused with a 400 that names the field, before any page is opened.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { browserServiceEnv } from '../support/browser-service-env.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { api, startTestService, type TestService } from '../support/service.js';
import { settleTask } from '../support/task-wait.js';

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

async function markdownTask(key: string, body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const created = await api(svc.url, 'POST', '/v1/tools/browser.markdown/tasks', { token: key, body });
  expect(created.status).toBe(202);
  const ended = await settleTask(svc.url, { id: created.body.task_id, token: created.body.poll_token });
  expect(ended.status).toBe('complete');
  return ended.body.result as Record<string, unknown>;
}

it('returns the trace with debug, and switches a step off by name', async () => {
  const { key } = await svc.createKey(1);
  const url = `http://site.fixture.test:${fixture.port}/article?debug-trace`;
  const traced = await markdownTask(key, { url, content: 'full', debug: true });
  const trace = traced.trace as { rule: string; tree: string; tag: string; text: string; chose?: string }[];
  expect(trace).toContainEqual({ rule: 'cookie-banners', tree: 'page', tag: 'div', text: expect.stringContaining('We use cookies') });
  expect(traced.markdown).not.toContain('We use cookies');

  const plain = await markdownTask(key, { url, content: 'full', off: ['cookie-banners'] });
  expect(plain.trace).toBeUndefined();
  expect(plain.markdown).toContain('We use cookies');
});

it('refuses an unknown step name with a 400 naming off', async () => {
  const { key } = await svc.createKey(1);
  const url = `http://site.fixture.test:${fixture.port}/article?debug-off`;
  const r = await api(svc.url, 'POST', '/v1/tools/browser.markdown/tasks', { token: key, body: { url, off: ['cookie-banner'] } });
  expect(r.status).toBe(400);
  expect(r.body.field).toBe('off');
  expect(r.body.error).toMatch(/^off: no extraction rule named "cookie-banner" \(rules: /);
  expect(fixture.requests.some((q) => q.url === '/article?debug-off')).toBe(false);
});
