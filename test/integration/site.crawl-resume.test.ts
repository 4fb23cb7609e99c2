// A crawl whose worker stops mid-crawl is taken over by the next process on the same data directory: the
// next attempt rebuilds its state from the pages already created, so it finishes the crawl without
// creating any page twice (a page whose fetch was cut off is retried by the engine, as any task is).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCrawlSite } from '../../bench/lib/crawl-site.mjs';
import { childBatchId } from '../../src/registry/child-tasks.js';
import { createRuntime } from '../../src/runtime.js';
import { startLocalServer, type LocalServer } from '../support/local-http.js';
import { testConfig } from '../support/tool-context.js';

let server: LocalServer;
let site: ReturnType<typeof createCrawlSite>;
let dataDir: string;

beforeAll(async () => {
  let port = 0;
  // A Crawl-delay keeps one page in flight at a time, so the crawl is still going when the worker stops.
  site = createCrawlSite({ hosts: ['127.0.0.1'], pages: 40, port: () => port, crawlDelay: 0.2 });
  server = await startLocalServer({ handler: (req, res) => site.handler(req, res) });
  port = server.port;
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-crawl-resume-'));
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('site.crawl after a worker stops', () => {
  it('resumes from the pages already created and creates none twice', async () => {
    const config = testConfig({ DATA_DIR: dataDir, NETWORK_ALLOWLIST: '127.0.0.1/32', POLL_INTERVAL_MS: '50', LEASE_MS: '2000' });
    const first = await createRuntime(config);
    const { task } = await first.engine.submit(
      'site.crawl',
      { url: `${server.origin}/`, limit: 12, sources: 'links' },
      { payer: { kind: 'local', id: 'test' }, free: true },
    );
    const batch = childBatchId(task.id);
    for (let i = 0; i < 400; i++) {
      const counts = await first.store.batchCounts(batch);
      if (counts.complete >= 3) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    // Stop at once: the crawl and its page in flight are given back to the queue, not cancelled.
    await first.engine.stop(0);
    await first.close();
    const createdBefore = (await (async () => {
      const probe = await createRuntime(config, { workers: false });
      try {
        return (await probe.store.getBatch(batch))!.total;
      } finally {
        await probe.close();
      }
    })()) as number;
    expect(createdBefore).toBeGreaterThanOrEqual(3);
    expect(createdBefore).toBeLessThan(12);

    const second = await createRuntime(config);
    try {
      const done = await second.engine.waitFor(task.id, 60_000);
      expect(done?.status, done?.error ?? '').toBe('complete');
      const result = done!.result as { pages: number; counts: { complete: number } };
      expect(result.pages).toBe(12);
      const items = await second.store.listBatchItems(batch, 0, 100);
      const urls = items.map((i) => (i.task!.input as { url: string }).url);
      expect(new Set(urls).size).toBe(12);
      // At most the one page whose fetch the stop cut off was asked for again.
      expect(site.duplicateFetches()).toBeLessThanOrEqual(1);
      expect(site.stats.disallowed).toBe(0);
    } finally {
      await second.close();
    }
  }, 90_000);
});
