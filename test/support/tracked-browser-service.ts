// The real service with its browser pool, the page fixture, and a tracker that follows every Chromium
// process the service starts: for tests that kill or starve Chromium and then count what is left.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFixtureServer, type FixtureServer } from './fixture-server.js';
import { ChromiumTracker } from './processes.js';
import { startTestService, type TestService } from './service.js';

export interface TrackedBrowserService {
  fixture: FixtureServer;
  svc: TestService;
  tracker: ChromiumTracker;
  /** Chromium's temporary directory (profiles land here). */
  tmp: string;
  /** Stops the service (and so its browsers), keeping the tracker to count what is left. */
  stopService(): Promise<void>;
  /** Stops the service if still running, then the tracker and fixture; restores TMPDIR. */
  close(): Promise<void>;
}

export async function startTrackedBrowserService(name: string, trackEveryMs?: number): Promise<TrackedBrowserService> {
  const savedTmpdir = process.env.TMPDIR;
  const fixture = await startFixtureServer();
  // Chromium inherits TMPDIR: its profile directories land here, and the variable marks every process it
  // starts (found again after a kill re-parents them).
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `au-${name}-`));
  process.env.TMPDIR = tmp;
  const tracker = new ChromiumTracker(`TMPDIR=${tmp}`, trackEveryMs);
  const svc = await startTestService({
    NETWORK_ALLOWLIST: '127.0.0.1/32',
    BROWSER_CONCURRENCY: '3',
    RATE_LIMIT_PER_IP: '0',
    RATE_LIMIT_PER_KEY: '0',
    // Sandboxed, Chromium's zygotes are re-parented and its renderers never show up under the browser,
    // so the tracker could not find them; what the pool does when one dies is the same either way.
    CHROMIUM_SANDBOX: 'off',
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
  });
  let running = true;
  const stopService = async () => {
    if (running) await svc.close();
    running = false;
  };
  return {
    fixture,
    svc,
    tracker,
    tmp,
    stopService,
    async close() {
      await stopService();
      tracker.stop();
      if (savedTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmpdir;
      await fixture.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
