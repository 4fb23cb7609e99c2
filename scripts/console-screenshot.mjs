// Writes docs/console.png (the Overview) and docs/console-playground.png (a geo.locate run plotted) from
// the BUILT service (npm run build first), in a throwaway data directory, with Debian's Chromium. Only
// local tools run (geo.locate, ip.geolocate read bundled data), so nothing leaves the machine.
//   node scripts/console-screenshot.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = (p) => path.join(root, 'dist', 'src', p);
const { loadConfig } = await import(dist('config.js'));
const { createLogger } = await import(dist('logger.js'));
const { createRuntime } = await import(dist('runtime.js'));
const { startHttpServer } = await import(dist('http/server.js'));
const { buildFrontDoors } = await import(dist('server/front-doors.js'));
const { createApiKey } = await import(dist('billing/api-keys.js'));

const ADMIN_TOKEN = 'screenshot-operator-token-0123456789';
const chromiumPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/lib/chromium/chromium'].find((p) => p && fs.existsSync(p));
if (!chromiumPath) throw new Error('No Chromium found: apt-get install chromium (or set CHROMIUM_PATH)');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'au-console-shot-'));
const config = loadConfig({
  ...process.env,
  DATA_DIR: dataDir,
  PORT: '0',
  HOST: '127.0.0.1',
  LEADS_PORT: '0',
  ADMIN_TOKEN,
  LOG_LEVEL: 'error',
  DATABASE_URL: '',
});
const log = createLogger(config.logLevel);
const doors = await buildFrontDoors(config, log);
const rt = await createRuntime(doors.config, { log });
const server = await startHttpServer(rt, await doors.httpOptions(rt));
const base = server.url;

try {
  // Some traffic for the charts: a spread of places and addresses, a few of which fail to resolve.
  const { row } = await createApiKey(rt.store, { creditsMicros: 20_000_000, label: 'demo' });
  const places = [
    'Paris, France',
    'Springfield, IL',
    'Tokyo',
    '94043',
    'Berlin',
    'Nowhere-in-particular 123',
    'São Paulo',
    'Nairobi, Kenya',
    'Zzyzx Qqq',
    'Sydney',
  ];
  const ips = ['8.8.8.8', '1.1.1.1', '9.9.9.9', '208.67.222.222'];
  const ids = [];
  for (let round = 0; round < 3; round++) {
    for (const address of places)
      ids.push((await rt.engine.submit('geo.locate', { address }, { payer: { kind: 'key', id: row.id }, chargeKeyId: row.id })).task.id);
    for (const ip of ips) ids.push((await rt.engine.submit('ip.geolocate', { ip }, { payer: { kind: 'key', id: row.id }, chargeKeyId: row.id })).task.id);
  }
  for (const id of ids) await rt.engine.waitFor(id, 60_000);

  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/console/login`);
    await page.getByLabel('Operator token (ADMIN_TOKEN)').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${base}/console`).catch(async (err) => {
      throw new Error(`sign-in did not reach the console: ${page.url()} ${(await page.textContent('main')) ?? ''}`, { cause: err });
    });
    await page.locator('body[data-charts="ready"]').waitFor();
    await page.screenshot({ path: path.join(root, 'docs', 'console.png'), fullPage: true });

    await page.goto(`${base}/console/playground#geo.locate`);
    await page.getByLabel('address (required)').fill('Springfield');
    await page.getByRole('button', { name: 'Run' }).click();
    await page.locator('#pg-output[data-status="complete"]').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: path.join(root, 'docs', 'console-playground.png'), fullPage: true });
    process.stdout.write('wrote docs/console.png and docs/console-playground.png\n');
  } finally {
    await browser.close();
  }
} finally {
  await server.close();
  await rt.close();
  await doors.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
