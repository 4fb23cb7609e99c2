// An API node's x402 settlement alone, as `serve --no-workers` runs it (same runtime, store and
// startX402), without the HTTP server: the takeover proof runs it from dist/ (the build compiles
// test/support) and SIGKILLs it. Config comes from the environment; argv[2] is the X402Options JSON
// (the lease timing a test shortens).
import { startX402, type X402Options } from '../../src/billing/x402/payments.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createRuntime } from '../../src/runtime.js';
import { testTools } from './test-tools.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const rt = await createRuntime(config, { log, workers: false, tools: testTools });
const x402 = await startX402(rt, JSON.parse(process.argv[2] ?? '{}') as X402Options);
log.info('settler node started', { pid: process.pid });
const keepAlive = setInterval(() => undefined, 2 ** 30);
process.once('SIGTERM', () => {
  clearInterval(keepAlive);
  Promise.resolve(x402?.close())
    .then(() => rt.close())
    .then(
      () => process.exit(0),
      () => process.exit(1),
    );
});
