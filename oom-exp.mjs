import { chromium } from 'playwright-core';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium-headless-shell', headless: true, args: ['--no-sandbox','--js-flags=--max-old-space-size=512'] });
const cdp = await browser.newBrowserCDPSession();
const t0 = Date.now();
cdp.on('Target.targetCrashed', (e) => console.log(Date.now()-t0, 'targetCrashed', JSON.stringify(e)));
await cdp.send('Target.setDiscoverTargets', { discover: true, filter: [{ type: 'page' }] });
const ctx = await browser.newContext();
const page = await ctx.newPage();
page.on('crash', () => console.log(Date.now()-t0, 'page crash event'));
try { await page.goto('data:text/html,<script>const kept = []; for (;;) kept.push(new Array(1e6).fill(kept.length));</script>', { timeout: 30000 }); } catch (e) { console.log(Date.now()-t0, 'goto err', e.message.split('\n')[0]); }
try { const s = await ctx.newCDPSession(page); console.log(Date.now()-t0, 'after crash info', JSON.stringify((await s.send('Target.getTargetInfo')).targetInfo)); await s.detach(); } catch (e) { console.log('lazy failed', e.message.split('\n')[0]); }
await browser.close();
