// Which Chromium to run: CHROMIUM_PATH when set, else the first that exists of Playwright's own downloads
// (`npx playwright install chromium`), Debian's chromium-headless-shell, Debian/Ubuntu's chromium, and
// Google Chrome. A headless shell comes first: it has no browser UI, so a context (a window in the full
// browser) costs about half the CPU, which is most of what a task costs. Playwright prefers it too.
import fs from 'node:fs';
import path from 'node:path';
import { playwright } from './playwright.js';

const SYSTEM_CANDIDATES = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

export const CHROMIUM_INSTALL_HINT =
  'Install one with `apt-get install chromium-headless-shell fonts-liberation` or `apt-get install chromium fonts-liberation` (Debian/Ubuntu) or `npx playwright install chromium`, or set CHROMIUM_PATH to a Chromium or Chrome executable.';

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Playwright's own downloads for this playwright-core version: its headless shell
 * (ms-playwright/chromium_headless_shell-<rev>/chrome-headless-shell-<platform>/chrome-headless-shell)
 * and its Chromium (what chromium.executablePath() names), whether downloaded or not.
 */
function playwrightBrowsers(): string[] {
  let full: string;
  try {
    full = playwright().chromium.executablePath();
  } catch {
    return [];
  }
  if (!full) return [];
  const out: string[] = [];
  // .../ms-playwright/chromium-<rev>/chrome-<platform>/chrome
  const revisionDir = path.dirname(path.dirname(full));
  const revision = /^chromium-(\d+)$/.exec(path.basename(revisionDir))?.[1];
  if (revision) {
    const shellDir = path.join(path.dirname(revisionDir), `chromium_headless_shell-${revision}`);
    try {
      for (const sub of fs.readdirSync(shellDir)) {
        for (const name of ['chrome-headless-shell', 'chrome-headless-shell.exe']) out.push(path.join(shellDir, sub, name));
      }
    } catch {
      // not downloaded
    }
  }
  out.push(full);
  return out;
}

/** The candidates in the order they are tried (for `setup` and error messages). */
export function chromiumCandidates(configured: string | undefined): string[] {
  if (configured) return [configured];
  return [...playwrightBrowsers(), ...SYSTEM_CANDIDATES];
}

/** The executable to launch; throws with install instructions when there is none. */
export function findChromium(configured: string | undefined): string {
  if (configured) {
    if (!isExecutable(configured)) throw new Error(`CHROMIUM_PATH=${configured} is not an executable file. ${CHROMIUM_INSTALL_HINT}`);
    return configured;
  }
  const found = chromiumCandidates(undefined).find(isExecutable);
  if (!found) throw new Error(`No Chromium found (looked for Playwright's downloads and ${SYSTEM_CANDIDATES.join(', ')}). ${CHROMIUM_INSTALL_HINT}`);
  return found;
}
