// CHROMIUM_SANDBOX=on: Chromium runs with its sandbox. This suite runs as root (as the service usually does),
// so Chromium is started through the wrapper as an unprivileged uid; its renderers then live in namespaces of
// their own under a seccomp-BPF filter, and pages still render through the guarded proxy. With the sandbox
// off (the default) renderers share this process's namespaces.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { NetGuard } from '../../src/net/guard.js';
import { findChromium } from '../../src/browser/chromium-path.js';
import { startBrowserRuntime, stopBrowserRuntime, type BrowserRuntime } from '../../src/browser/service.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';

const UID = 65534;
const log = createLogger('silent');
let fixture: FixtureServer;

beforeAll(async () => {
  fixture = await startFixtureServer();
});
afterAll(async () => {
  await fixture?.close();
});

/** Renderer processes of `uid` (this suite's Chromium only: nothing else here runs as that uid). */
function renderersOf(uid: number): { pid: number; status: string; netNs: string }[] {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes('--type=renderer')) continue;
      const status = fs.readFileSync(`/proc/${entry}/status`, 'utf8');
      if (!new RegExp(`^Uid:\\s+${uid}\\s`, 'm').test(status)) continue;
      out.push({ pid: Number(entry), status, netNs: fs.readlinkSync(`/proc/${entry}/ns/net`) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe.runIf(process.getuid?.() === 0)('Chromium with its sandbox, started by root', () => {
  let rt: BrowserRuntime;
  beforeAll(async () => {
    rt = await startBrowserRuntime({
      executablePath: findChromium(process.env.CHROMIUM_PATH),
      concurrency: 1,
      sandbox: { enabled: true, uid: UID },
      guard: new NetGuard({ allowlist: ['127.0.0.1/32'] }),
      log,
    });
  });
  afterAll(async () => {
    if (rt) await stopBrowserRuntime(rt);
  });

  it('renders pages with renderers as the unprivileged uid, in their own namespaces, under seccomp', async () => {
    const title = await rt.pool.withPage(async (page) => {
      await page.goto(`${fixture.origin}/article`);
      const renderers = renderersOf(UID);
      expect(renderers.length).toBeGreaterThan(0);
      for (const r of renderers) {
        expect(r.status).toMatch(/^Seccomp:\s+2$/m);
        expect(r.netNs).not.toBe(fs.readlinkSync('/proc/self/ns/net'));
      }
      return page.title();
    });
    expect(title.length).toBeGreaterThan(0);
  });

  it('leaves no wrapper behind once closed', async () => {
    const wrapper = rt.sandbox.executablePath;
    expect(fs.existsSync(wrapper)).toBe(true);
    await stopBrowserRuntime(rt);
    rt = undefined as never;
    expect(fs.existsSync(wrapper)).toBe(false);
  });
});
