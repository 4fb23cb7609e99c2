// One warm Chromium, a fresh context (cookies, storage, cache) for every task, and at most `concurrency`
// pages rendering at once. Creating a context and its page costs ~200 ms, so a few are prepared ahead
// and a task only picks one up. The browser is relaunched when it crashes and replaced after
// `recycleAfterPages` tasks (a standby is launched shortly before, so nobody waits for it).
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { Logger } from '../logger.js';
import { chromiumArgs } from './launch-args.js';
import { Slots } from './slots.js';
import { playwright } from './playwright.js';

export const DEFAULT_VIEWPORT = { width: 1280, height: 800 };

// Every context: no downloads, no service workers (they would outlive the page's checks and cache
// across loads), nothing carried over from another task.
const CONTEXT_OPTIONS: BrowserContextOptions = {
  acceptDownloads: false,
  serviceWorkers: 'block',
  viewport: DEFAULT_VIEWPORT,
  deviceScaleFactor: 1,
  ignoreHTTPSErrors: false,
  locale: 'en-US',
  timezoneId: 'UTC',
};

export interface BrowserPoolOptions {
  executablePath: string;
  /** Pages rendering at once; more tasks wait in a FIFO queue. */
  concurrency: number;
  /** Contexts+pages kept ready ahead of demand. */
  prepared?: number;
  /** Replace the browser after this many tasks (bounds memory growth). */
  recycleAfterPages?: number;
  /** The guarded proxy every connection goes through (undefined only in tests of the pool itself). */
  proxyUrl: string | undefined;
  /** The credential the proxy requires (Playwright answers its 407 challenges with it). */
  proxyCredentials?: { username: string; password: string } | undefined;
  log: Logger;
}

export interface PoolStats {
  launches: number;
  served: number;
  active: number;
  queued: number;
  prepared: number;
}

interface Prepared {
  context: BrowserContext;
  page: Page;
}

class Generation {
  readonly spares: Promise<Prepared | null>[] = [];
  served = 0;
  active = 0;
  retiring = false;
  closed = false;
  closing: Promise<void> | undefined;

  constructor(
    readonly id: number,
    readonly browser: Browser,
  ) {}

  get usable(): boolean {
    return !this.closed && !this.retiring && this.browser.isConnected();
  }
}

export class BrowserClosedError extends Error {
  constructor(message = 'The browser pool is closed.') {
    super(message);
    this.name = 'BrowserClosedError';
  }
}

export class BrowserPool {
  private readonly slots: Slots;
  private readonly preparedTarget: number;
  private readonly recycleAfter: number;
  private readonly generations = new Set<Generation>();
  private readonly contextsClosing = new Set<Promise<void>>();
  private current: Generation | undefined;
  private standby: Generation | undefined;
  private launching: Promise<void> | undefined;
  private launchError: unknown;
  private launches = 0;
  private served = 0;
  private closed = false;

  constructor(private readonly opts: BrowserPoolOptions) {
    this.slots = new Slots(opts.concurrency);
    this.preparedTarget = Math.max(1, Math.min(opts.prepared ?? 2, opts.concurrency));
    this.recycleAfter = Math.max(10, opts.recycleAfterPages ?? 200);
  }

  /** Launches the browser and prepares the first pages now instead of on the first task. */
  async warm(): Promise<void> {
    await this.generation();
  }

  stats(): PoolStats {
    return {
      launches: this.launches,
      served: this.served,
      active: this.slots.active,
      queued: this.slots.queued,
      prepared: this.current?.spares.length ?? 0,
    };
  }

  /**
   * Runs `fn` with a fresh page in a fresh context, waiting for a free slot first. Aborting `signal`
   * closes the context, so whatever `fn` awaits on the page fails at once. The context is discarded after.
   */
  async withPage<T>(fn: (page: Page) => Promise<T>, opts: { signal?: AbortSignal | undefined; contextOptions?: BrowserContextOptions | undefined } = {}): Promise<T> {
    if (this.closed) throw new BrowserClosedError();
    const { signal } = opts;
    await this.slots.acquire(signal);
    let lease: Prepared & { gen: Generation };
    try {
      signal?.throwIfAborted();
      lease = await this.lease(opts.contextOptions);
    } catch (err) {
      this.slots.release();
      throw err;
    }
    const onAbort = () => void lease.context.close().catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal?.aborted) throw signal.reason;
      return await fn(lease.page);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.release(lease);
      this.slots.release();
    }
  }

  /** Closes every context and browser and waits until Chromium has exited. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.slots.rejectAll(new BrowserClosedError());
    await this.launching?.catch(() => undefined);
    await Promise.allSettled([...this.contextsClosing]);
    await Promise.allSettled([...this.generations].map((g) => this.closeGeneration(g)));
  }

  /** `contextOptions` (a task's own user agent, device, headers…) gets a context made for it, not a spare. */
  private async lease(contextOptions?: BrowserContextOptions): Promise<Prepared & { gen: Generation }> {
    // A browser can die between handing out a spare and using it; one retry on a fresh one is enough.
    for (let attempt = 1; ; attempt++) {
      const gen = await this.generation();
      gen.served++;
      gen.active++;
      this.served++;
      try {
        if (contextOptions) return { ...(await this.prepare(gen, contextOptions)), gen };
        const spare = gen.spares.shift();
        this.refill(gen);
        let prepared = spare ? await spare : null;
        if (!prepared || prepared.page.isClosed()) prepared = await this.prepare(gen);
        return { ...prepared, gen };
      } catch (err) {
        gen.active--;
        this.maybeFinishRetiring(gen);
        if (attempt >= 2 || this.closed) throw err;
      }
    }
  }

  private release(lease: Prepared & { gen: Generation }): void {
    const closing = lease.context.close().catch(() => undefined);
    this.contextsClosing.add(closing);
    void closing.finally(() => this.contextsClosing.delete(closing));
    lease.gen.active--;
    this.maybeFinishRetiring(lease.gen);
  }

  /** The generation to serve from: the current one, its standby once it is due, or a new launch. */
  private async generation(): Promise<Generation> {
    for (;;) {
      if (this.closed) throw new BrowserClosedError();
      const cur = this.current;
      if (cur?.usable) {
        const due = cur.served >= this.recycleAfter;
        // Launch the replacement a little before it is due so the switch costs nothing.
        if (cur.served >= this.recycleAfter - Math.max(8, this.opts.concurrency * 2) && !this.standby) this.startLaunch();
        if (!due || !this.standby?.usable) return cur;
        this.retire(cur);
      }
      if (this.standby?.usable) {
        this.current = this.standby;
        this.standby = undefined;
        return this.current;
      }
      this.startLaunch();
      await this.launching;
      if (!this.standby?.usable && this.launchError !== undefined) {
        const err = this.launchError;
        this.launchError = undefined;
        throw err;
      }
    }
  }

  private startLaunch(): void {
    if (this.launching || this.closed) return;
    this.launchError = undefined;
    // Never rejects: a launch started ahead of time has nobody awaiting it. generation() reports the error.
    const launching = this.launch()
      .catch((err: unknown) => {
        this.launchError = err;
        this.opts.log.error('browser launch failed', { err });
      })
      .finally(() => {
        if (this.launching === launching) this.launching = undefined;
      });
    this.launching = launching;
  }

  private async launch(): Promise<void> {
    const started = Date.now();
    const browser = await playwright().chromium.launch({
      executablePath: this.opts.executablePath,
      headless: true,
      args: chromiumArgs(this.opts.proxyUrl),
      // Same server as the command line; given here so Playwright answers the proxy's 407 with the secret.
      ...(this.opts.proxyUrl && this.opts.proxyCredentials ? { proxy: { server: this.opts.proxyUrl, ...this.opts.proxyCredentials } } : {}),
      timeout: 30_000,
      // The service decides when to stop; Chromium goes when the pool is disposed.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const gen = new Generation(++this.launches, browser);
    this.generations.add(gen);
    browser.on('disconnected', () => this.onDisconnected(gen));
    if (this.closed) {
      await this.closeGeneration(gen);
      return;
    }
    this.opts.log.info('browser launched', { generation: gen.id, version: browser.version(), ms: Date.now() - started });
    this.standby = gen;
    this.refill(gen);
  }

  private onDisconnected(gen: Generation): void {
    if (!gen.closed && !this.closed) this.opts.log.warn('browser disconnected; the next task relaunches it', { generation: gen.id });
    gen.closed = true;
    this.generations.delete(gen);
    if (this.current === gen) this.current = undefined;
    if (this.standby === gen) this.standby = undefined;
  }

  private refill(gen: Generation): void {
    while (gen.usable && gen.spares.length < this.preparedTarget) {
      gen.spares.push(
        this.prepare(gen).catch((err: unknown) => {
          if (gen.usable) this.opts.log.warn('could not prepare a browser page', { err });
          return null;
        }),
      );
    }
  }

  private async prepare(gen: Generation, extra?: BrowserContextOptions): Promise<Prepared> {
    const context = await gen.browser.newContext(extra ? { ...CONTEXT_OPTIONS, ...extra } : CONTEXT_OPTIONS);
    try {
      const page = await context.newPage();
      page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
      // Popups and window.open() targets are closed: a task renders exactly one page.
      context.on('page', (other) => {
        if (other !== page) void other.close().catch(() => undefined);
      });
      return { context, page };
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
  }

  private retire(gen: Generation): void {
    gen.retiring = true;
    if (this.current === gen) this.current = undefined;
    this.maybeFinishRetiring(gen);
  }

  private maybeFinishRetiring(gen: Generation): void {
    if (gen.retiring && gen.active === 0) void this.closeGeneration(gen);
  }

  private closeGeneration(gen: Generation): Promise<void> {
    gen.closing ??= (async () => {
      gen.closed = true;
      const spares = await Promise.all(gen.spares.splice(0));
      await Promise.allSettled(spares.map((s) => s?.context.close()));
      await gen.browser.close().catch(() => undefined);
      this.generations.delete(gen);
    })();
    return gen.closing;
  }
}
