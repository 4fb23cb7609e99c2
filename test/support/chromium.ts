import fs from 'node:fs';

/** Debian's Chromium (CI installs it), or CHROMIUM_PATH. */
export function findChromium(): string {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/google-chrome'].filter((p): p is string =>
    Boolean(p),
  );
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error('No Chromium found: apt-get install chromium (or set CHROMIUM_PATH)');
  return found;
}
