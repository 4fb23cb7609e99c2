// A worker process exactly like `agent-utility worker` (same runtime, engine, leases, store) whose
// registry holds only test.side_effect, which the CLI's registry must not contain. The cluster proof
// runs it from dist/ (the build compiles test/support) and SIGKILLs it like the CLI workers.
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { createRuntime } from '../../src/runtime.js';
import { sideEffectTool } from './side-effect-tool.js';

const config = loadConfig();
const log = createLogger(config.logLevel);
const rt = await createRuntime(config, { log, workers: true, tools: [sideEffectTool] });
log.info('side-effect worker started', { owner: rt.engine.workerOwner });
const keepAlive = setInterval(() => undefined, 2 ** 30);
process.once('SIGTERM', () => {
  clearInterval(keepAlive);
  rt.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
