// Runs one extractor over a chunk of pages in a worker thread. jsdom keeps memory a closed window should
// have released (about 10 MB a page with defuddle), so a pass over the whole corpus in one heap runs out of
// memory; each chunk gets a fresh worker, whose heap is freed when it exits.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { extractors, OURS } from './markdown-extractors.mjs';

const { name, docs } = workerData;
const ex = (await extractors({ withBaselines: name !== OURS })).find((e) => e.name === name);
const outputs = [];
let failures = 0;
const started = performance.now();
for (const doc of docs) {
  try {
    outputs.push(await ex.run(doc));
  } catch {
    failures++;
    outputs.push('');
  }
}
parentPort.postMessage({ outputs, failures, ms: performance.now() - started });
