// playwright-core costs ~0.5 s of CPU to load, a third of a worker's start-up: loaded on first use (a
// page to render, a browser error to classify), so a worker that never renders a page never pays it.
import { createRequire } from 'node:module';
import type * as Playwright from 'playwright-core';

const require = createRequire(import.meta.url);
let loaded: typeof Playwright | undefined;

export function playwright(): typeof Playwright {
  return (loaded ??= require('playwright-core') as typeof Playwright);
}
