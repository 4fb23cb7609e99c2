// One warm Chromium and at most `concurrency` pages rendering at once. A task with the standard settings
// gets a reused tab: a context and page of their own that earlier tasks used, wiped in between (see
// ./tab-reset.ts), which saves the context, the page and, for the same site, the renderer process: about
// 40 % of a screenshot's CPU; a task for an origin gets the tab that last showed it when there is one, so
// that its renderer process is kept too. Tasks that say they share (`share`: one caller's crawl pages) pass
// a tab from one to the next without the wipe while they stay on one origin. A task with settings of its own (user agent, device, headers...)
// gets a fresh context, closed after it. The browser is relaunched when it crashes and replaced after
// `recycleAfterPages` tasks (a standby is launched shortly before, so nobody waits for it).
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { Logger } from '../logger.js';
import { chromiumArgs } from './launch-args.js';
import { Slots } from './slots.js';
import { playwright } from './playwright.js';
import { markPlainPage } from './capture.js';
import { resetTab, resumeTab, storageOrigin } from './tab-reset.js';
import { CrashReasons, type CrashCause } from './crash-reasons.js';

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
  /** Chromium with its sandbox (sandbox.ts); `executablePath` is then what browserSandbox() returned. */
  sandbox?: boolean;
  /** Pages rendering at once; more tasks wait in a FIFO queue. */
  concurrency: number;
  /** Tabs kept ready ahead of demand. */
  prepared?: number;
  /** A reused tab is closed and replaced after this many tasks. */
  tabUses?: number;
  /** How long a tab left unwiped waits for a task of its share and origin before it is wiped for anyone; default 1 s. */
  holdMs?: number;
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
  /** Tasks that got a tab an earlier task had used (wiped in between). */
  reused: number;
  /** Browsers that went away without being asked to (crashed or killed); the next task relaunches. */
  crashes: number;
  /** Pages whose renderer crashed (out of memory, killed) while a task used them. */
  crashedPages: number;
}

interface Prepared {
  context: BrowserContext;
  page: Page;
}

/** A context and page kept for task after task; `dirty` once a task used it, until it is wiped. */
interface Tab extends Prepared {
  uses: number;
  /** Origins the page's frames committed documents from since the last wipe (their storage is cleared). */
  origins: Set<string>;
  /** Crashed, closed, or a popup appeared: closed instead of being wiped and reused. */
  broken: boolean;
  /** The origin the last task left the tab on: its renderer process stays with the tab through the wipe. */
  lastOrigin: string | undefined;
  /** Left unwiped by a task that shares (the `share` it gave): only a task with the same share and origin may take it so. */
  heldFor: string | undefined;
  /** Wipes a held tab that no task of its share took in time. */
  holdTimer: NodeJS.Timeout | undefined;
}

type Lease = Prepared & { gen: Generation; tab: Tab | undefined };

class Generation {
  /** Tabs ready for a task. */
  readonly idle: Tab[] = [];
  /** Tasks waiting for a tab being wiped (every tab is in use and no more may be made). */
  readonly tabWaiters: ((tab: Tab | null) => void)[] = [];
  /** Tabs in any state (ready, in use, being wiped, being made). */
  tabs = 0;
  /** Tabs being made. */
  making = 0;
  /** Tabs being wiped, each with the wipe (settles once the tab is ready again, handed on or closed). */
  readonly wiping = new Map<Tab, Promise<void>>();
  served = 0;
  active = 0;
  retiring = false;
  closed = false;
  closing: Promise<void> | undefined;
  /** Chromium's reports of how this browser's renderers ended (undefined when the watcher could not start). */
  crashReasons: CrashReasons | undefined;
  /** Pages whose renderer crashed; their task's error says why (crash-reasons.ts). */
  readonly crashed = new WeakSet<Page>();
  /** Rejects once the browser is gone (see until()). */
  private readonly gone: Promise<never>;
  private markGone!: (err: Error) => void;

  constructor(
    readonly id: number,
    readonly browser: Browser,
  ) {
    this.gone = new Promise<never>((_, reject) => (this.markGone = reject));
    this.gone.catch(() => undefined);
  }

  /**
   * `work`, or a BrowserClosedError as soon as this browser is gone. Playwright leaves a newContext() or
   * newPage() pending for good when Chromium is killed in the middle of it (seen in the crash-storm test),
   * and a task awaiting one would hold its slot for ever.
   */
  until<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    return Promise.race([work, this.gone]);
  }

  end(): void {
    this.closed = true;
    this.markGone(new BrowserClosedError('The browser closed while preparing a page.'));
  }

  get usable(): boolean {
    return !this.closed && !this.retiring && this.browser.isConnected();
  }
}

/** Waits for a tab handed back by a wipe (or null when the generation ends); an abort withdraws the wait. */
function waitForTab(gen: Generation, signal: AbortSignal | undefined): Promise<Tab | null> {
  return new Promise<Tab | null>((resolve, reject) => {
    const waiter = (tab: Tab | null) => {
      signal?.removeEventListener('abort', onAbort);
      resolve(tab);
    };
    const onAbort = () => {
      const i = gen.tabWaiters.indexOf(waiter);
      if (i >= 0) gen.tabWaiters.splice(i, 1);
      reject(signal!.reason);
    };
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    gen.tabWaiters.push(waiter);
  });
}

/** A tab left unwiped for `share` on `origin`, ready to take as it is. */
function takeHeld(idle: Tab[], share: string | undefined, origin: string | undefined): Tab | undefined {
  if (share === undefined || origin === undefined) return undefined;
  const i = idle.findIndex((t) => t.heldFor === share && t.lastOrigin === origin);
  return i >= 0 ? idle.splice(i, 1)[0] : undefined;
}

/**
 * The oldest ready tab, or with `origin` the oldest that last showed it. The wipe leaves such a tab's
 * renderer process in place (about:blank stays in it), and a same-site page then commits in that process
 * instead of Chromium starting a new one: a crawl of a few hosts over several tabs otherwise starts a
 * renderer for almost every page (about 40 ms of Chromium CPU a page, measured on bench/crawl's site).
 */
function takeIdle(idle: Tab[], origin: string | undefined): Tab | undefined {
  // Only wiped tabs: a held one goes to its own share (takeHeld), or is wiped first.
  const i = origin === undefined ? -1 : idle.findIndex((t) => t.heldFor === undefined && t.lastOrigin === origin);
  if (i >= 0) return idle.splice(i, 1)[0];
  const j = idle.findIndex((t) => t.heldFor === undefined);
  return j >= 0 ? idle.splice(j, 1)[0] : undefined;
}

/** The wipe of a tab that last showed `origin`, when no ready tab did. */
function wipeOfOrigin(gen: Generation, origin: string): Promise<void> | undefined {
  if (gen.idle.some((t) => t.heldFor === undefined && t.lastOrigin === origin)) return undefined;
  for (const [tab, wipe] of gen.wiping) if (tab.lastOrigin === origin) return wipe;
  return undefined;
}

/** `work` (which never rejects), or the abort's reason as soon as `signal` aborts. */
async function untilAborted(work: Promise<void> | undefined, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return work;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([work, new Promise<never>((_, reject) => signal.addEventListener('abort', (onAbort = () => reject(signal.reason)), { once: true }))]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

export class BrowserClosedError extends Error {
  constructor(message = 'The browser pool is closed.') {
    super(message);
    this.name = 'BrowserClosedError';
  }
}

/** A task's page crashed under it; `how` says how, as far as Chromium could tell. */
export class PageCrashedError extends Error {
  constructor(readonly how: CrashCause) {
    super(`The page crashed (${how}).`);
    this.name = 'PageCrashedError';
  }
}

export class BrowserPool {
  private readonly slots: Slots;
  private readonly preparedTarget: number;
  private readonly tabCap: number;
  private readonly tabUses: number;
  private readonly recycleAfter: number;
  private readonly holdMs: number;
  private readonly generations = new Set<Generation>();
  private readonly contextsClosing = new Set<Promise<void>>();
  private current: Generation | undefined;
  private standby: Generation | undefined;
  private launching: Promise<void> | undefined;
  private launchError: unknown;
  private launches = 0;
  private served = 0;
  private reused = 0;
  private crashes = 0;
  private crashedPages = 0;
  private closed = false;

  constructor(private readonly opts: BrowserPoolOptions) {
    this.slots = new Slots(opts.concurrency);
    this.preparedTarget = Math.max(1, Math.min(opts.prepared ?? 2, opts.concurrency));
    // Every slot busy and a ready tab besides, so the next task never waits for a wipe; and as many again
    // kept for the origins they last showed, so that tasks spread over a few sites (a crawl of several
    // hosts) find their site's tab, and its renderer process, ready: a renderer process held per tab
    // against ~20 ms of Chromium CPU a rendered page saved (bench/crawl, four hosts).
    this.tabCap = 2 * opts.concurrency + this.preparedTarget;
    this.tabUses = Math.max(1, opts.tabUses ?? 100);
    this.recycleAfter = Math.max(10, opts.recycleAfterPages ?? 200);
    this.holdMs = opts.holdMs ?? 1_000;
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
      prepared: this.current?.idle.length ?? 0,
      reused: this.reused,
      crashes: this.crashes,
      crashedPages: this.crashedPages,
    };
  }

  /**
   * Runs `fn` with a page nothing from another task can be seen in, waiting for a free slot first: a
   * wiped reused tab, or with `contextOptions` a fresh context made with them (closed afterwards).
   * `fn` may navigate, evaluate, capture and resize the viewport; anything else that changes the page or
   * its context (headers, routes, cookies, emulation) needs `contextOptions`, so that it goes away with
   * the context. Aborting `signal` closes the context, so whatever `fn` awaits on the page fails at once.
   * `url`, the page `fn` will open, lets the pool prefer a ready tab that last showed the same origin.
   * `share` (with `url`, without `contextOptions`) names tasks that may see one another's state, one
   * caller's crawl pages: such a task leaves its tab unwiped for the next task of the same share and origin
   * (no navigation to about:blank, no clearing); a task of any other share, or none, gets it only wiped.
   */
  async withPage<T>(
    fn: (page: Page) => Promise<T>,
    opts: {
      signal?: AbortSignal | undefined;
      contextOptions?: BrowserContextOptions | undefined;
      url?: string | undefined;
      share?: string | undefined;
    } = {},
  ): Promise<T> {
    if (this.closed) throw new BrowserClosedError();
    const { signal } = opts;
    const origin = opts.url === undefined ? undefined : storageOrigin(opts.url);
    const share = opts.contextOptions || origin === undefined ? undefined : opts.share;
    await this.slots.acquire(signal);
    let lease: Lease;
    try {
      signal?.throwIfAborted();
      lease = await this.lease(opts.contextOptions, signal, origin, share);
    } catch (err) {
      this.slots.release();
      throw err;
    }
    const onAbort = () => void lease.context.close().catch(() => undefined);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      if (signal?.aborted) throw signal.reason;
      return await fn(lease.page);
    } catch (err) {
      // Whatever the task was awaiting failed because its renderer died: say how it died instead.
      if (!signal?.aborted && lease.gen.crashed.has(lease.page)) throw new PageCrashedError((await lease.gen.crashReasons?.causeFor(lease.page)) ?? 'crashed');
      throw err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.release(lease, share);
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

  private async lease(
    contextOptions: BrowserContextOptions | undefined,
    signal: AbortSignal | undefined,
    origin: string | undefined,
    share: string | undefined,
  ): Promise<Lease> {
    // A browser can die between handing out a tab and using it; one retry on a fresh one is enough.
    for (let attempt = 1; ; attempt++) {
      const gen = await this.generation(signal);
      gen.served++;
      gen.active++;
      this.served++;
      try {
        if (contextOptions) return { ...(await this.prepare(gen, contextOptions)), gen, tab: undefined };
        const tab = await this.takeTab(gen, signal, origin, share);
        if (tab.uses++ > 0) this.reused++;
        return { context: tab.context, page: tab.page, gen, tab };
      } catch (err) {
        gen.active--;
        this.maybeFinishRetiring(gen);
        if (attempt >= 2 || this.closed) throw err;
      }
    }
  }

  /**
   * A ready tab, a new one while there may be more, or the next one a wipe gives back. Never waits on a
   * browser that is gone (nobody would hand it a tab: the task's slot would be held for good), and gives
   * up when the task is aborted.
   */
  private async takeTab(gen: Generation, signal: AbortSignal | undefined, origin: string | undefined, share: string | undefined): Promise<Tab> {
    for (;;) {
      if (!gen.usable) throw new BrowserClosedError('The browser closed while waiting for a page.');
      const held = takeHeld(gen.idle, share, origin);
      if (held) {
        clearTimeout(held.holdTimer);
        held.heldFor = undefined;
        if (!held.broken && !held.page.isClosed() && (await resumeTab(held.page))) return held;
        this.discardTab(gen, held);
        continue;
      }
      const wiped = origin === undefined ? undefined : wipeOfOrigin(gen, origin);
      if (wiped) {
        // That tab is ready in a few ms and spares Chromium a renderer process: worth the wait.
        await untilAborted(wiped, signal);
        continue;
      }
      const ready = takeIdle(gen.idle, origin);
      if (ready && !ready.broken && !ready.page.isClosed()) {
        this.refill(gen);
        return ready;
      }
      if (ready) {
        this.discardTab(gen, ready);
        continue;
      }
      if (gen.tabs < this.tabCap) return this.makeTab(gen);
      // Every tab is in use or held for another share: the oldest held one is wiped for this task.
      const other = gen.idle.findIndex((t) => t.heldFor !== undefined);
      if (other >= 0) {
        const tab = gen.idle.splice(other, 1)[0]!;
        this.wipe(gen, tab);
        await untilAborted(gen.wiping.get(tab), signal);
        continue;
      }
      const handed = await waitForTab(gen, signal);
      if (handed) return handed;
    }
  }

  private release(lease: Lease, share: string | undefined): void {
    lease.gen.active--;
    if (lease.tab) {
      const { gen, tab } = lease;
      const origin = storageOrigin(tab.page.url());
      // Nobody is waiting (a waiter may be of any share), and the tab may be reused as it is.
      const holds =
        share !== undefined &&
        origin !== undefined &&
        gen.tabWaiters.length === 0 &&
        gen.usable &&
        !tab.broken &&
        tab.uses < this.tabUses &&
        !tab.page.isClosed();
      if (holds) this.hold(gen, tab, share, origin);
      else this.wipe(gen, tab);
    } else this.closeContext(lease.context);
    this.maybeFinishRetiring(lease.gen);
  }

  /** Keeps a tab unwiped for the next task of `share` on `origin`; wiped for anyone after holdMs. */
  private hold(gen: Generation, tab: Tab, share: string, origin: string): void {
    tab.heldFor = share;
    tab.lastOrigin = origin;
    gen.idle.push(tab);
    tab.holdTimer = setTimeout(() => {
      const i = gen.idle.indexOf(tab);
      if (i < 0 || tab.heldFor !== share) return;
      gen.idle.splice(i, 1);
      this.wipe(gen, tab);
    }, this.holdMs);
    tab.holdTimer.unref();
  }

  /** Wipes a tab (in the background) and hands it on, or closes it. */
  private wipe(gen: Generation, tab: Tab): void {
    clearTimeout(tab.holdTimer);
    tab.heldFor = undefined;
    const wipe = this.returnTab(gen, tab).catch((err: unknown) => this.opts.log.warn('could not return a browser tab', { err }));
    gen.wiping.set(
      tab,
      wipe.finally(() => gen.wiping.delete(tab)),
    );
  }

  /** Wipes a used tab and hands it to a waiting task or back to the ready list; closes it when it cannot be reused. */
  private async returnTab(gen: Generation, tab: Tab): Promise<void> {
    let reusable = gen.usable && !tab.broken && tab.uses < this.tabUses && !tab.page.isClosed();
    tab.lastOrigin = reusable ? storageOrigin(tab.page.url()) : undefined;
    if (reusable) {
      try {
        reusable = await resetTab(tab.page, tab.origins, DEFAULT_VIEWPORT);
        tab.origins.clear();
      } catch (err) {
        if (gen.usable && !tab.page.isClosed()) this.opts.log.warn('could not wipe a browser tab; closing it', { err });
        reusable = false;
      }
      // A crash or popup while wiping counts too.
      if (tab.broken || !gen.usable) reusable = false;
    }
    if (!reusable) {
      this.discardTab(gen, tab);
      return;
    }
    const waiter = gen.tabWaiters.shift();
    if (waiter) waiter(tab);
    else gen.idle.push(tab);
  }

  private discardTab(gen: Generation, tab: Tab): void {
    gen.tabs--;
    this.closeContext(tab.context);
    // A task waiting for a tab now may have a new one made.
    const waiter = gen.tabWaiters.shift();
    if (waiter) {
      if (!gen.usable) waiter(null);
      else
        void this.makeTab(gen).then(waiter, (err: unknown) => {
          this.opts.log.warn('could not prepare a browser page', { err });
          waiter(null);
        });
    } else {
      this.refill(gen);
    }
  }

  private closeContext(context: BrowserContext): void {
    const closing = context.close().catch(() => undefined);
    this.contextsClosing.add(closing);
    void closing.finally(() => this.contextsClosing.delete(closing));
  }

  /** The generation to serve from: the current one, its standby once it is due, or a new launch. */
  private async generation(signal?: AbortSignal): Promise<Generation> {
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
      await untilAborted(this.launching, signal);
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
      args: chromiumArgs(this.opts.proxyUrl, this.opts.sandbox === true),
      chromiumSandbox: this.opts.sandbox === true,
      // Same server as the command line; given here so Playwright answers the proxy's 407 with the secret.
      ...(this.opts.proxyUrl && this.opts.proxyCredentials ? { proxy: { server: this.opts.proxyUrl, ...this.opts.proxyCredentials } } : {}),
      timeout: 30_000,
      // The service decides when to stop; Chromium goes when the pool is disposed.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const gen = new Generation(++this.launches, browser);
    try {
      gen.crashReasons = await CrashReasons.watch(browser);
    } catch (err) {
      // Tasks still work; a crashed page's error is then the generic one.
      this.opts.log.warn('could not watch the browser for crash reports', { err });
    }
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
    if (!gen.closed && !this.closed) {
      this.crashes++;
      this.opts.log.warn('browser disconnected; the next task relaunches it', { generation: gen.id });
    }
    gen.end();
    for (const waiter of gen.tabWaiters.splice(0)) waiter(null);
    this.generations.delete(gen);
    if (this.current === gen) this.current = undefined;
    if (this.standby === gen) this.standby = undefined;
  }

  /** Keeps `prepared` tabs ready (made in the background), within the cap. */
  private refill(gen: Generation): void {
    while (gen.usable && gen.idle.length + gen.making < this.preparedTarget && gen.tabs < this.tabCap) {
      void this.makeTab(gen).then(
        (tab) => {
          const waiter = gen.tabWaiters.shift();
          if (waiter) waiter(tab);
          else gen.idle.push(tab);
        },
        (err: unknown) => {
          if (gen.usable) this.opts.log.warn('could not prepare a browser page', { err });
        },
      );
    }
  }

  private async makeTab(gen: Generation): Promise<Tab> {
    gen.tabs++;
    gen.making++;
    try {
      const prepared = await this.prepare(gen);
      const tab: Tab = { ...prepared, uses: 0, origins: new Set(), broken: false, lastOrigin: undefined, heldFor: undefined, holdTimer: undefined };
      const { page, context } = prepared;
      markPlainPage(page);
      page.on('crash', () => (tab.broken = true));
      page.on('close', () => (tab.broken = true));
      page.on('framenavigated', (frame) => {
        const origin = storageOrigin(frame.url());
        if (origin) tab.origins.add(origin);
      });
      // A popup is closed at once (see prepare), but it may have stored something first under an origin
      // nobody tracked: the tab is not reused.
      context.on('page', (other) => {
        if (other !== page) tab.broken = true;
      });
      if (!gen.usable) throw new BrowserClosedError('The browser closed while preparing a page.');
      return tab;
    } catch (err) {
      gen.tabs--;
      throw err;
    } finally {
      gen.making--;
    }
  }

  private async prepare(gen: Generation, extra?: BrowserContextOptions): Promise<Prepared> {
    const context = await gen.until(gen.browser.newContext(extra ? { ...CONTEXT_OPTIONS, ...extra } : CONTEXT_OPTIONS));
    try {
      const page = await gen.until(context.newPage());
      page.on('dialog', (dialog) => void dialog.dismiss().catch(() => undefined));
      page.on('crash', () => {
        this.crashedPages++;
        gen.crashed.add(page);
      });
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
      gen.end();
      for (const waiter of gen.tabWaiters.splice(0)) waiter(null);
      const idle = gen.idle.splice(0);
      for (const t of idle) clearTimeout(t.holdTimer);
      await Promise.allSettled(idle.map((t) => t.context.close()));
      await gen.browser.close().catch(() => undefined);
      this.generations.delete(gen);
    })();
    return gen.closing;
  }
}
