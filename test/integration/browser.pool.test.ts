// The pool on its own: bounded concurrency with a FIFO queue, reused tabs wiped between tasks (nothing
// leaks from one task to the next), a fresh context for tasks with their own options, relaunch after the
// browser dies, recycling after N pages, cancellation while queued, and a close() that leaves no
// Chromium process and no temporary profile behind.
import dgram from 'node:dgram';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { createLogger } from '../../src/logger.js';
import { NetGuard } from '../../src/net/guard.js';
import { findChromium } from '../../src/browser/chromium-path.js';
import { startBrowserRuntime, stopBrowserRuntime, type BrowserRuntime } from '../../src/browser/service.js';
import { PageCrashedError } from '../../src/browser/pool.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { chromiumBrowsers, chromiumProcesses } from '../support/processes.js';
import { makeToolContext } from '../support/tool-context.js';
import content from '../../tools/browser.content.js';
import { captureScreenshot } from '../../src/browser/capture.js';
import { cdpSession } from '../../src/browser/cdp.js';
import { imageSize } from '../../src/browser/image-size.js';

const log = createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');
let fixture: FixtureServer;
let tmp: string;
const savedTmpdir = process.env.TMPDIR;

beforeAll(async () => {
  fixture = await startFixtureServer();
  // Playwright puts Chromium's profile under os.tmpdir(); a private one shows whether it is cleaned up.
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'au-pool-'));
  process.env.TMPDIR = tmp;
});
afterAll(async () => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  await fixture?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function start(opts: { concurrency?: number; recycleAfterPages?: number; holdMs?: number } = {}): Promise<BrowserRuntime> {
  return startBrowserRuntime({
    executablePath: findChromium(process.env.CHROMIUM_PATH),
    concurrency: opts.concurrency ?? 2,
    guard: new NetGuard({ allowlist: ['127.0.0.1/32'] }),
    log,
    ...(opts.recycleAfterPages !== undefined ? { recycleAfterPages: opts.recycleAfterPages } : {}),
    ...(opts.holdMs !== undefined ? { holdMs: opts.holdMs } : {}),
  });
}

async function title(runtime: BrowserRuntime, pathname = '/article'): Promise<string> {
  return runtime.pool.withPage(async (page) => {
    await page.goto(`${fixture.origin}${pathname}`);
    return page.title();
  });
}

describe('BrowserPool', () => {
  let rt: BrowserRuntime;
  beforeAll(async () => {
    rt = await start({ concurrency: 2 });
    await rt.pool.warm();
  });
  afterAll(async () => {
    await stopBrowserRuntime(rt);
  });

  it('prepares pages ahead of the first task', () => {
    expect(rt.pool.stats()).toMatchObject({ launches: 1, active: 0 });
  });

  it('runs at most `concurrency` tasks at once and queues the rest', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates: (() => void)[] = [];
    const tasks = Array.from({ length: 6 }, (_, i) =>
      rt.pool.withPage(async (page) => {
        started.push(i);
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => gates.push(resolve));
        running--;
        return page.url();
      }),
    );
    while (gates.length < 2) await new Promise((r) => setTimeout(r, 10));
    expect(rt.pool.stats()).toMatchObject({ active: 2, queued: 4 });
    while (started.length < 6) {
      gates.shift()?.();
      await new Promise((r) => setTimeout(r, 10));
    }
    for (const g of gates.splice(0)) g();
    await Promise.all(tasks);
    expect(most).toBe(2);
    // Slots are granted in order (see the Slots unit test); the first two ran first, then all the rest.
    expect(started.slice(0, 2).sort()).toEqual([0, 1]);
    expect([...started].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    expect(rt.pool.stats()).toMatchObject({ active: 0, queued: 0 });
  });

  it('gives a task with context options a context of its own, closed afterwards', async () => {
    const contexts: BrowserContext[] = [];
    for (let i = 0; i < 3; i++) await rt.pool.withPage(async (page) => void contexts.push(page.context()), { contextOptions: { userAgent: `agent ${i}` } });
    expect(new Set(contexts).size).toBe(3);
    // A closed context has no pages left. Closing finishes after withPage returns, so wait for it (bounded)
    // rather than for a fixed time.
    for (let i = 0; i < 200 && contexts.some((c) => c.pages().length > 0); i++) await new Promise((r) => setTimeout(r, 50));
    for (const c of contexts) expect(c.pages()).toEqual([]);
  });

  it('reuses a tab but shows the next task nothing of the last one', async () => {
    const origin = fixture.origin;
    let first: Page | undefined;
    await rt.pool.withPage(async (page) => {
      first = page;
      // Cookies (from the server and from script), local and session storage come from /set-state.
      await page.goto(`${origin}/set-state`);
      await page.evaluate(async () => {
        window.name = 'secret-name';
        await caches.open('secret-cache');
        await new Promise<void>((resolve, reject) => {
          const req = indexedDB.open('secret-db');
          req.onupgradeneeded = () => req.result.createObjectStore('s');
          req.onsuccess = () => {
            req.result.close();
            resolve();
          };
          req.onerror = () => reject(req.error);
        });
      });
      await page.goto(`${origin}/article?secret-history=1`);
      await page.addScriptTag({ url: `${origin}/cacheable.js` });
      await page.setViewportSize({ width: 500, height: 300 });
    });
    // The next tasks take the pool's ready tabs in turn; go on until one gets the first task's tab again
    // (once its wipe has finished).
    let seen: Record<string, unknown> | undefined;
    for (let i = 0; i < 200 && !seen; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 25));
      seen = await rt.pool.withPage(async (page) => {
        if (page !== first) return undefined;
        const before = fixture.paths.length;
        await page.goto(`${origin}/show-state`);
        await page.addScriptTag({ url: `${origin}/cacheable.js` });
        const state = await page.evaluate(async () => ({
          text: `${document.getElementById('server')?.textContent} ${document.getElementById('out')?.textContent}`,
          name: window.name,
          databases: (await indexedDB.databases()).map((d) => d.name),
          caches: await caches.keys(),
          history: history.length,
          viewport: `${innerWidth}x${innerHeight}`,
        }));
        const refetched = fixture.paths.slice(before).includes('/cacheable.js');
        await page.goBack();
        return { ...state, refetched, back: page.url() };
      });
    }
    expect(seen).toEqual({
      text: 'server-saw=[] cookies=[] ls=[null] ss=[null]',
      name: '',
      databases: [],
      caches: [],
      // about:blank, where the wipe left the tab, and this page.
      history: 2,
      viewport: '1280x800',
      refetched: true,
      back: 'about:blank',
    });
  });

  it('passes a tab unwiped to the next task of the same share and origin, and only wiped to any other task', async () => {
    const own = await start({ concurrency: 2 });
    const origin = fixture.origin;
    const showState = async (page: Page) => {
      await page.goto(`${origin}/show-state`);
      return page.evaluate(() => `${document.getElementById('server')?.textContent} ${document.getElementById('out')?.textContent}`);
    };
    const clean = 'server-saw=[] cookies=[] ls=[null] ss=[null]';
    try {
      let first: Page | undefined;
      await own.pool.withPage(
        async (page) => {
          first = page;
          await page.goto(`${origin}/set-state`);
          // As a DOM-reading task leaves it (loaded-page.ts): the next task of the share gets scripts back.
          await (await cdpSession(page)).send('Emulation.setScriptExecutionDisabled', { value: true });
        },
        { url: `${origin}/set-state`, share: 'crawl-a' },
      );
      // Another share on the same origin, at once: never the held tab.
      const other = await own.pool.withPage(async (page) => ({ same: page === first, text: await showState(page) }), {
        url: `${origin}/show-state`,
        share: 'crawl-b',
      });
      expect(other).toEqual({ same: false, text: clean });
      // The same share and origin: the same tab, as the last task left it.
      const same = await own.pool.withPage(async (page) => ({ same: page === first, text: await showState(page) }), {
        url: `${origin}/show-state`,
        share: 'crawl-a',
      });
      expect(same.same).toBe(true);
      expect(same.text).toContain('ls=[secret-ls] ss=[secret-ss]');
      // Unclaimed, the held tab is wiped and goes to anyone: a task without a share that gets it sees nothing.
      let seen: string | undefined;
      for (let i = 0; i < 200 && seen === undefined; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 25));
        seen = await own.pool.withPage(async (page) => (page === first ? showState(page) : undefined), { url: `${origin}/show-state` });
      }
      expect(seen).toBe(clean);
    } finally {
      await stopBrowserRuntime(own);
    }
  });

  it('wipes a tab held for another share before a task gets it when every tab is taken', async () => {
    // Two slots: at most six tabs. Six shares each leave one held on the same origin, held for long enough.
    const own = await start({ concurrency: 2, holdMs: 60_000 });
    const origin = fixture.origin;
    try {
      const held = new Set<Page>();
      for (let i = 0; i < 6; i++) {
        await own.pool.withPage(
          async (page) => {
            held.add(page);
            await page.goto(`${origin}/set-state`);
          },
          { url: `${origin}/set-state`, share: `crawl-${i}` },
        );
      }
      const got = await own.pool.withPage(
        async (page) => {
          await page.goto(`${origin}/show-state`);
          const text = await page.evaluate(() => `${document.getElementById('server')?.textContent} ${document.getElementById('out')?.textContent}`);
          return { reused: held.has(page), text };
        },
        { url: `${origin}/show-state`, share: 'another' },
      );
      expect(got).toEqual({ reused: true, text: 'server-saw=[] cookies=[] ls=[null] ss=[null]' });
    } finally {
      await stopBrowserRuntime(own);
    }
  });

  it('gives a task the ready tab that last showed its origin (its renderer process is still there)', async () => {
    // A fresh pool (two slots, two tabs ready ahead, up to six tabs), none of which has shown anything yet.
    const own = await start({ concurrency: 2 });
    const other = await startFixtureServer();
    try {
      const byOrigin = new Map<string, Set<Page>>();
      for (let round = 0; round < 4; round++) {
        for (const origin of [fixture.origin, other.origin]) {
          const url = `${origin}/article?round=${round}`;
          await own.pool.withPage(
            async (page) => {
              await page.goto(url);
              byOrigin.set(origin, (byOrigin.get(origin) ?? new Set()).add(page));
            },
            { url },
          );
        }
      }
      // Taking the oldest ready tab instead cycles through the tabs, so each origin would meet several.
      expect(byOrigin.get(fixture.origin)?.size).toBe(1);
      expect(byOrigin.get(other.origin)?.size).toBe(1);
      expect([...byOrigin.get(fixture.origin)!][0]).not.toBe([...byOrigin.get(other.origin)!][0]);
    } finally {
      await other.close();
      await stopBrowserRuntime(own);
    }
  });

  it('captures device pixels under device emulation, and leaves the emulation in place', async () => {
    const shot = async (page: Page, fullPage = false) =>
      imageSize(await captureScreenshot(page, { format: 'png', fullPage, maxHeight: 1000, timeoutMs: 20_000 }));
    const emulated = await rt.pool.withPage(
      async (page) => {
        await page.goto(`${fixture.origin}/tall?h=3000`);
        return { view: await shot(page), full: await shot(page, true), again: await shot(page), dpr: await page.evaluate(() => devicePixelRatio) };
      },
      { contextOptions: { deviceScaleFactor: 2, viewport: { width: 300, height: 200 } } },
    );
    expect(emulated).toEqual({ view: { width: 600, height: 400 }, full: { width: 600, height: 2000 }, again: { width: 600, height: 400 }, dpr: 2 });
    // A standard tab (the fast path): CSS pixels, the full height cut at the limit, the viewport kept.
    const plain = await rt.pool.withPage(async (page) => {
      await page.setViewportSize({ width: 300, height: 200 });
      await page.goto(`${fixture.origin}/tall?h=3000`);
      return { full: await shot(page, true), view: await shot(page) };
    });
    expect(plain).toEqual({ full: { width: 300, height: 1000 }, view: { width: 300, height: 200 } });
  });

  it('does not reuse a tab whose page crashed', async () => {
    let crashed: Page | undefined;
    await expect(
      rt.pool.withPage((page) => {
        crashed = page;
        return page.goto('chrome://crash');
      }),
    ).rejects.toThrow();
    const pages: Page[] = [];
    for (let i = 0; i < 4; i++) {
      await rt.pool.withPage(async (page) => {
        pages.push(page);
        await page.goto(`${fixture.origin}/plain`);
      });
    }
    expect(crashed).toBeDefined();
    expect(pages).not.toContain(crashed);
  });

  it('lets a task waiting for a slot be cancelled', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const busy = [rt.pool.withPage(() => hold), rt.pool.withPage(() => hold)];
    const controller = new AbortController();
    const waiting = rt.pool.withPage(async () => 'ran', { signal: controller.signal });
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    release();
    await Promise.all(busy);
  });

  it('survives a renderer crash, and counts it', async () => {
    const before = rt.pool.stats().crashedPages;
    await expect(rt.pool.withPage((page) => page.goto('chrome://crash'))).rejects.toThrow();
    expect(await title(rt)).toBe('Growing Tomatoes at Home');
    // Playwright reports the crash event on its own schedule: wait for it rather than for a time.
    await expect.poll(() => rt.pool.stats().crashedPages, { timeout: 30_000 }).toBe(before + 1);
  });

  // Chromium's debug URLs end the renderer each way: an allocator OOM (the same deliberate trap as the
  // heap cap), a segfault, and a SIGTERM. The task's error says which, from Chromium's report.
  it.each([
    ['chrome://memory-exhaust', 'memory'],
    ['chrome://crash', 'crashed'],
    ['chrome://kill', 'killed'],
  ])('says how the page ended when %s ends its renderer', async (url, how) => {
    const err = await rt.pool
      .withPage(async (page) => {
        const crashed = page.waitForEvent('crash', { timeout: 30_000 });
        void page.goto(url).catch(() => undefined);
        await crashed;
        // What a task does next on its page, which fails now that the renderer is gone.
        return page.evaluate(() => document.title);
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PageCrashedError);
    expect((err as PageCrashedError).how).toBe(how);
  });

  it('relaunches the browser after its process dies', async () => {
    expect(await title(rt)).toBe('Growing Tomatoes at Home');
    const browsers = chromiumBrowsers();
    expect(browsers.length).toBeGreaterThanOrEqual(1);
    const launches = rt.pool.stats().launches;
    for (const b of browsers) process.kill(b.pid, 'SIGKILL');
    // The first task after the crash may still hit the dying browser and fail; the pool recovers.
    let result: string | undefined;
    for (let i = 0; i < 3 && result === undefined; i++) result = await title(rt).catch(() => undefined);
    expect(result).toBe('Growing Tomatoes at Home');
    expect(rt.pool.stats().launches).toBeGreaterThan(launches);
    expect(rt.pool.stats().crashes).toBeGreaterThanOrEqual(1);
  });
});

describe('WebRTC', () => {
  /** Starts ICE gathering against a STUN server on the canary address; resolves with the candidate count. */
  async function gatherIce(page: Page, port: number): Promise<number> {
    await page.setContent('<p>rtc</p>');
    return page.evaluate(async (stunPort) => {
      const pc = new RTCPeerConnection({ iceServers: [{ urls: `stun:127.0.0.2:${stunPort}` }] });
      pc.createDataChannel('probe');
      await pc.setLocalDescription(await pc.createOffer());
      await new Promise<void>((resolve) => {
        pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
        setTimeout(resolve, 4000);
      });
      return (pc.localDescription?.sdp.match(/a=candidate/g) ?? []).length;
    }, port);
  }

  it('sends no UDP around the proxy (a browser without the policy does)', async () => {
    const socket = dgram.createSocket('udp4');
    let datagrams = 0;
    socket.on('message', () => datagrams++);
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.2', resolve));
    const port = socket.address().port;
    try {
      const rt = await start();
      try {
        expect(await rt.pool.withPage((page) => gatherIce(page, port))).toBe(0);
      } finally {
        await stopBrowserRuntime(rt);
      }
      expect(datagrams).toBe(0);
      // Control: the same page in a browser started without our flags reaches the STUN server.
      const plain = await chromium.launch({ executablePath: findChromium(process.env.CHROMIUM_PATH), args: ['--no-sandbox'] });
      try {
        await gatherIce(await plain.newPage(), port);
      } finally {
        await plain.close();
      }
      expect(datagrams).toBeGreaterThan(0);
    } finally {
      socket.close();
    }
  });
});

describe('without a browser', () => {
  it('fails the task (not the caller) with install advice', async () => {
    const ctx = makeToolContext({ CHROMIUM_PATH: '/nonexistent/chromium', NETWORK_ALLOWLIST: '127.0.0.1/32' });
    try {
      const err = await content.run(ctx, content.input.parse({ url: `${fixture.origin}/article` })).catch((e: unknown) => e);
      expect(err).toMatchObject({ name: 'ToolError', kind: 'permanent' });
      expect((err as Error).message).toMatch(/CHROMIUM_PATH=\/nonexistent\/chromium .*apt-get install/);
    } finally {
      await ctx.close();
    }
  });
});

describe('recycling and shutdown', () => {
  it('replaces the browser after N pages and closes the old one', async () => {
    const rt = await start({ concurrency: 2, recycleAfterPages: 10 });
    try {
      expect(await title(rt, '/plain')).toBe('Plain');
      const first = chromiumBrowsers().map((p) => p.pid);
      expect(first.length).toBeGreaterThanOrEqual(1);
      for (let i = 0; i < 20; i++) expect(await title(rt, '/plain')).toBe('Plain');
      expect(rt.pool.stats().launches).toBeGreaterThanOrEqual(2);
      // The first browser has served its pages and is gone; at most the current one and its standby run. Every
      // replaced browser closes once its last page is done (21 pages recycle twice: the second may still be
      // closing when the loop ends), so the wait covers all of them, not only the first.
      const settled = (browsers: number[]) => !browsers.some((pid) => first.includes(pid)) && browsers.length <= 2;
      for (let i = 0; i < 50 && !settled(chromiumBrowsers().map((p) => p.pid)); i++) await new Promise((r) => setTimeout(r, 100));
      const now = chromiumBrowsers().map((p) => p.pid);
      expect(now.filter((pid) => first.includes(pid))).toEqual([]);
      expect(now.length).toBeLessThanOrEqual(2);
    } finally {
      await stopBrowserRuntime(rt);
    }
  });

  it('close() leaves no Chromium process and no temporary profile', async () => {
    const rt = await start({ concurrency: 3 });
    await Promise.all([title(rt), title(rt), title(rt)]);
    expect(chromiumProcesses().length).toBeGreaterThan(0);
    await stopBrowserRuntime(rt);
    for (let i = 0; i < 50 && chromiumProcesses().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(chromiumProcesses()).toEqual([]);
    expect(fs.readdirSync(tmp).filter((f) => f.startsWith('playwright'))).toEqual([]);
    await expect(rt.pool.withPage(async () => 1)).rejects.toThrow(/closed/);
  });
});
