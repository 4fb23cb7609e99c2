// A 4 MB article converted by the extraction workers inside the running service's process, and a 0.5 MB one
// through the whole tool (REST, engine, Chromium, browser.markdown), while another caller polls /healthz and
// creates tasks: the conversions run in worker threads, so the service keeps answering. On the service's own
// thread a conversion held every request for its whole duration (seconds). The assertion counts answers, not
// milliseconds (a shared CI machine makes any wall-clock bound a matter of luck): requests answered while the
// 4 MB conversion was still pending. On the service's thread none could be, since the conversion would hold
// the event loop from start to end. The slowest waits are printed for the record (the figure is
// 200 ms on a quiet machine); the 4 MB page goes to the pool directly so that a slow shared machine cannot push the
// task past the tool's 60 s budget (the tool calls the same function, src/extract/markdown-pool.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { longArticle } from '../../bench/lib/long-article.mjs';
import { markdownInWorker } from '../../src/extract/markdown-pool.js';
import { browserServiceEnv } from '../support/browser-service-env.js';
import { startKnot, type KnotServer } from '../support/knot.js';
import { api, startTestService, type TestService } from '../support/service.js';

const BIG_BYTES = 4 * 1024 * 1024;
const PAGE_BYTES = 512 * 1024;
const MAX_WAIT_MS = 200;

let pages: http.Server;
let port: number;
let knot: KnotServer;
let svc: TestService;
let bigPage: string;

beforeAll(async () => {
  const page = longArticle(PAGE_BYTES);
  // Made before the clock starts: building 4 MB of text is itself work on this thread.
  bigPage = longArticle(BIG_BYTES);
  pages = http.createServer((req, res) => {
    const body = req.url === '/article' ? page : '<!doctype html><title>Small</title><p>small</p>';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  port = (pages.address() as AddressInfo).port;
  knot = await startKnot([{ origin: 'offloop.test', records: ['site 300 IN A 127.0.0.1'] }]);
  svc = await startTestService(browserServiceEnv(knot.server));
});
afterAll(async () => {
  await svc?.close();
  await knot?.stop();
  await new Promise((resolve) => pages?.close(resolve));
});

/** Time one request takes to be answered, in ms. */
async function timed(fn: () => Promise<{ status: number }>, expected: number): Promise<number> {
  const t0 = performance.now();
  const res = await fn();
  const ms = performance.now() - t0;
  expect(res.status).toBe(expected);
  return ms;
}

it('keeps answering /healthz and task creation while 4 MB and 0.5 MB pages are converted', { timeout: 240_000 }, async () => {
  const { key } = await svc.createKey(10);
  const created = await api(svc.url, 'POST', '/v1/tools/browser.markdown/tasks', {
    token: key,
    body: { url: `http://site.offloop.test:${port}/article` },
  });
  expect(created.status).toBe(202);

  let done = false;
  const start = performance.now();
  const slow: string[] = [];
  let bigMs = 0;
  const marks: string[] = [];
  const health: number[] = [];
  const creations: number[] = [];
  // Answers completed while the 4 MB conversion had not finished yet.
  let bigPending = true;
  let healthDuringBig = 0;
  let creationsDuringBig = 0;
  const prober = (async () => {
    for (let i = 0; !done; i++) {
      const at = performance.now();
      const ms = await timed(() => api(svc.url, 'GET', '/healthz'), 200);
      health.push(ms);
      if (bigPending) healthDuringBig++;
      if (ms > MAX_WAIT_MS) slow.push(`${Math.round(ms)} ms at +${Math.round(at - start)} ms`);
      if (i % 5 === 0) {
        const body = { url: `http://site.offloop.test:${port}/small` };
        creations.push(await timed(() => api(svc.url, 'POST', '/v1/tools/url.status/tasks', { token: key, body }), 202));
        if (bigPending) creationsDuringBig++;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();

  const big = markdownInWorker(bigPage, 'A long report on the river', 'main');
  void big.finally(() => (bigPending = false)).catch(() => undefined);
  let result: Record<string, unknown> | undefined;
  let converted: Awaited<typeof big> | undefined;
  try {
    for (;;) {
      const polled = await api(svc.url, 'GET', `${created.body.poll_url}?wait=5`, { token: created.body.poll_token });
      if (polled.body.status === 'pending' || polled.body.status === 'running') continue;
      expect(polled.body.error ?? null).toBeNull();
      expect(polled.body.status).toBe('complete');
      result = polled.body.result as Record<string, unknown>;
      marks.push(`task done +${Math.round(performance.now() - start)}`);
      break;
    }
    converted = await big;
    bigMs = performance.now() - start;
    marks.push(`4 MB done +${Math.round(performance.now() - start)}`);
  } finally {
    done = true;
    await prober;
  }
  // The whole article came through (every section heading of the generated page is in the Markdown).
  expect(result?.source).toBe('article');
  expect(String(result?.markdown)).toContain('Section 1:');
  expect((result?.bytes as number) > 0.8 * PAGE_BYTES).toBe(true);
  expect(converted?.source).toBe('article');
  expect(converted!.markdown.length > 0.8 * BIG_BYTES).toBe(true);
  // The prober ran throughout: many answers, each in time.
  expect(health.length).toBeGreaterThan(20);
  expect(creations.length).toBeGreaterThan(4);
  process.stderr.write(`${slow.join('; ')} | ${marks.join('; ')}\n`);
  process.stderr.write(
    `4 MB conversion ${Math.round(bigMs)} ms; healthz slowest ${[...health]
      .sort((a, b) => b - a)
      .slice(0, 5)
      .map(Math.round)
      .join(', ')} ms of ${health.length}; creation slowest ${Math.round(Math.max(...creations))} ms of ${creations.length}\n`,
  );
  // The service answered while the conversion ran: on its own thread, not one answer could have completed
  // between the conversion's start and its end.
  expect(healthDuringBig).toBeGreaterThan(10);
  expect(creationsDuringBig).toBeGreaterThan(1);
});
