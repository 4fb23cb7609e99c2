// Discovery endpoints over real HTTP: the OpenAPI document passes a real OpenAPI 3.1 validator and
// covers every registered tool; the agent card, service metadata, health and metrics answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { api, startTestService, type TestService } from '../support/service.js';
import { tools } from '../../tools/index.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => svc?.close());

describe('discovery', () => {
  it('/openapi.json is valid OpenAPI 3.1 and covers every tool with input and result schemas', async () => {
    const { status, body } = await api(svc.url, 'GET', '/openapi.json');
    expect(status).toBe(200);
    expect(body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const res = await validator.validate(body);
    expect(res.errors ?? []).toEqual([]);
    expect(res.valid).toBe(true);
    // The validator does reject a broken document (so the check above means something).
    const broken = structuredClone(body);
    delete broken.info;
    broken.paths['/v1/tasks/{task_id}'].get.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
    for (const t of tools) {
      const op = body.paths[`/v1/tools/${t.name}/tasks`].post;
      expect(Object.keys(op.responses).sort()).toEqual(['202', '400', '401', '402', '403', '404', '413', '415', '422', '429']);
      const ref = op.requestBody.$ref as string;
      expect(body.components.requestBodies[ref.split('/').pop()!].content['application/json'].schema.type).toBe('object');
    }
    expect(body.components.securitySchemes.apiKey.scheme).toBe('bearer');
    expect(body.components.schemas.Task.properties.result.anyOf.length).toBe(tools.length + 1);
    // Every $ref resolves inside the document.
    const refs = JSON.stringify(body).match(/"\$ref":"[^"]+"/g) ?? [];
    for (const r of refs) {
      const [kind, name] = r.slice(8, -1).replace('#/components/', '').split('/');
      expect(body.components[kind!][name!], r).toBeTruthy();
    }
  });

  it('/v1/tools lists descriptors and /v1/tools/{tool} gives one', async () => {
    const list = await api(svc.url, 'GET', '/v1/tools');
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(tools.length);
    const d = list.body.tools.find((t: { name: string }) => t.name === 'dns.lookup');
    expect(d).toMatchObject({ name: 'dns.lookup', price: { usd: '0.001', micro_usd: 1000 }, endpoint: '/v1/tools/dns.lookup/tasks' });
    expect(d.input_schema.properties.domain).toBeTruthy();
    expect(d.output_schema.properties.records).toBeTruthy();
    const one = await api(svc.url, 'GET', '/v1/tools/dns.lookup');
    expect(one.body).toEqual(d);
  });

  it('serves the A2A card at both well-known paths with a skill per tool', async () => {
    const a = await api(svc.url, 'GET', '/.well-known/agent.json');
    const b = await api(svc.url, 'GET', '/.well-known/agent-card.json');
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body.skills.map((s: { id: string }) => s.id).sort()).toEqual(tools.map((t) => t.name).sort());
    expect(a.body.securitySchemes.apiKey).toBeTruthy();
    expect(a.body.supportedInterfaces[0].url).toBe(`${svc.url}/a2a`);
  });

  it('serves service metadata, health and Prometheus metrics', async () => {
    const meta = await api(svc.url, 'GET', '/.well-known/agent-service.json');
    expect(meta.body.tools.length).toBe(tools.length);
    expect(meta.body.base_url).toBe(svc.url);
    const health = await api(svc.url, 'GET', '/healthz');
    expect(health.body).toMatchObject({ status: 'ok', store: 'sqlite', workers: true });
    const metrics = await api(svc.url, 'GET', '/metrics');
    expect(metrics.headers.get('content-type')).toMatch(/text\/plain/);
    expect(metrics.body).toMatch(/^agent_utility_queue_depth \d+$/m);
  });
});
