// Chromium's sandbox. By default (CHROMIUM_SANDBOX=auto) the service tries user namespaces once at start and
// uses the sandbox where they work: on this machine's kernel the renderers must then actually be sandboxed
// (seccomp-BPF, a network namespace of their own), and where the try fails they must be plainly not, with
// /healthz and /metrics saying which and why. CHROMIUM_SANDBOX=on as root starts Chromium through the
// wrapper as an unprivileged uid; CHROMIUM_SANDBOX=off leaves renderers in this process's namespaces.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { NetGuard } from '../../src/net/guard.js';
import { findChromium } from '../../src/browser/chromium-path.js';
import { startBrowserRuntime, stopBrowserRuntime, type BrowserRuntime } from '../../src/browser/service.js';
import { decideSandbox, type SandboxDecision } from '../../src/browser/sandbox-decision.js';
import { gatherSandboxFacts } from '../../src/browser/sandbox-facts.js';
import { startHttpServer } from '../../src/http/server.js';
import { createRuntime } from '../../src/runtime.js';
import { buildFrontDoors } from '../../src/server/front-doors.js';
import { onFreePort } from '../support/free-port.js';
import { startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { testConfig } from '../support/tool-context.js';

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

/** The parent pid of `pid`, from /proc. */
function parentOf(pid: number): number | undefined {
  try {
    const m = /^PPid:\s+(\d+)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Renderer processes descended from this test process (so only this suite's Chromium), with their status. */
function ourRenderers(): { pid: number; status: string; netNs: string }[] {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      let p: number | undefined = Number(entry);
      while (p !== undefined && p > 1 && p !== process.pid) p = parentOf(p);
      if (p !== process.pid) continue;
      out.push({ pid: Number(entry), status: fs.readFileSync(`/proc/${entry}/status`, 'utf8'), netNs: fs.readlinkSync(`/proc/${entry}/ns/net`) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

describe.runIf(process.platform === 'linux')('the default: the sandbox where this machine allows it', () => {
  let rt: BrowserRuntime | undefined;
  let expected: SandboxDecision;
  beforeAll(async () => {
    expected = decideSandbox(gatherSandboxFacts({ setting: 'auto', uid: UID }));
    rt = await startBrowserRuntime({
      executablePath: findChromium(process.env.CHROMIUM_PATH),
      concurrency: 1,
      sandbox: { setting: 'auto', uid: UID },
      guard: new NetGuard({ allowlist: ['127.0.0.1/32'] }),
      log,
    });
  });
  afterAll(async () => {
    if (rt) await stopBrowserRuntime(rt);
  });

  it('runs renderers sandboxed exactly when the try says it can, and pages still render', async () => {
    expect(rt!.sandbox.enabled).toBe(expected.enabled);
    const title = await rt!.pool.withPage(async (page) => {
      await page.goto(`${fixture.origin}/article`);
      const renderers = ourRenderers();
      expect(renderers.length).toBeGreaterThan(0);
      const uid = expected.runAsUid ?? process.getuid!();
      for (const r of renderers) {
        expect(r.status).toMatch(new RegExp(`^Uid:\\s+${uid}\\s`, 'm'));
        if (expected.enabled) {
          expect(r.status).toMatch(/^Seccomp:\s+2$/m);
          expect(r.netNs).not.toBe(fs.readlinkSync('/proc/self/ns/net'));
        } else {
          expect(r.status).toMatch(/^Seccomp:\s+0$/m);
          expect(r.netNs).toBe(fs.readlinkSync('/proc/self/ns/net'));
        }
      }
      return page.title();
    });
    expect(title.length).toBeGreaterThan(0);
  });

  it('says so, with the reason, on /healthz and /metrics', async () => {
    const {
      rt: svc,
      server,
      doors,
    } = await onFreePort(async (port) => {
      const config = testConfig({ PORT: String(port), LEADS_PORT: '0' });
      const doors = await buildFrontDoors(config, log);
      const svc = await createRuntime(doors.config, { log });
      return { rt: svc, doors, server: await startHttpServer(svc, await doors.httpOptions(svc)) };
    });
    try {
      const health = (await (await fetch(`${server.url}/healthz`)).json()) as { browser_sandbox: { enabled: boolean; reason: string } };
      expect(health.browser_sandbox).toEqual({ enabled: expected.enabled, reason: expected.reason });
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain(`agent_utility_browser_sandbox{reason="${expected.reason.replace(/"/g, '\\"')}"} ${expected.enabled ? 1 : 0}`);
    } finally {
      await server.close();
      await svc.close();
      await doors.close();
    }
  });
});

describe('CHROMIUM_SANDBOX=off', () => {
  it('runs renderers without the sandbox whatever the machine allows', async () => {
    const rt = await startBrowserRuntime({
      executablePath: findChromium(process.env.CHROMIUM_PATH),
      concurrency: 1,
      sandbox: { setting: 'off', uid: UID },
      guard: new NetGuard({ allowlist: ['127.0.0.1/32'] }),
      log,
    });
    try {
      expect(rt.sandbox.enabled).toBe(false);
      await rt.pool.withPage(async (page) => {
        await page.goto(`${fixture.origin}/article`);
        const renderers = ourRenderers();
        expect(renderers.length).toBeGreaterThan(0);
        for (const r of renderers) expect(r.netNs).toBe(fs.readlinkSync('/proc/self/ns/net'));
      });
    } finally {
      await stopBrowserRuntime(rt);
    }
  });
});

describe.runIf(process.getuid?.() === 0)('Chromium with its sandbox, started by root', () => {
  let rt: BrowserRuntime;
  beforeAll(async () => {
    rt = await startBrowserRuntime({
      executablePath: findChromium(process.env.CHROMIUM_PATH),
      concurrency: 1,
      sandbox: { setting: 'on', uid: UID },
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
