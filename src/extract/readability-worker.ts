// The thread side of readability-thread.ts: Readability's pass on each page's HTML it is sent, answered on
// the port, then the counter bumped and the waiting thread woken.
import { workerData } from 'node:worker_threads';
import { readabilityPick } from './readability-pass.js';
import type { ReadabilityReply, ReadabilityRequest, ReadabilityThreadInit } from './readability-thread.js';

const { port, done } = workerData as ReadabilityThreadInit;

port.on('message', ({ id, html }: ReadabilityRequest) => {
  let reply: ReadabilityReply;
  try {
    reply = { id, ok: true, pick: readabilityPick(html) };
  } catch (err) {
    reply = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
  Atomics.add(done, 0, 1);
  Atomics.notify(done, 0);
});
