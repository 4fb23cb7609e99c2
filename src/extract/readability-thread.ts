// Readability's pass in a thread of its own, while the extraction prunes the page: the two are independent
// (Readability reads its own parse of the cleaned page's HTML), and on a long page each takes about as long
// as the other (a 4 MB article: Readability 1.2 s, the page's pruning 0.6 s), so on two cores the
// conversion's wall time loses the shorter of them. The steps are synchronous, so the result is waited for
// synchronously (Atomics.wait on a counter the thread bumps, then receiveMessageOnPort): the code around it
// stays as it was, and the pick is the same as the one read here (the same function on the same string).
// One thread per thread that converts, started with its first page and kept (unref'd: it keeps no process
// alive). Without the built thread script (the sources run by a test runner before a build), the pass runs
// here, in turn.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, resourceLimits, Worker, type MessagePort } from 'node:worker_threads';
import { readabilityPick, type ReadabilityPick } from './readability-pass.js';

/** What the thread starts with: the port it is sent pages on and answers on, and the counter it bumps after each answer. */
export interface ReadabilityThreadInit {
  port: MessagePort;
  done: Int32Array;
}

/** One page for the thread. */
export interface ReadabilityRequest {
  id: number;
  html: string;
}

/** The thread's answer to one page (Readability's own failures are a null pick, as here). */
export type ReadabilityReply = { id: number } & ({ ok: true; pick: ReadabilityPick | null } | { ok: false; error: string });

interface Thread {
  worker: Worker;
  port: MessagePort;
  done: Int32Array;
}

/**
 * Longest wait for the thread's answer: past it the thread is taken for lost (it ran out of memory, or
 * died: a blocked wait cannot see its exit event), replaced for the next page, and the pass runs here
 * instead (the same function on the same HTML, so the same pick). Readability takes about 0.3 s per MB.
 */
export const THREAD_WAIT_MS = 30_000;

let thread: Thread | null | undefined;
/** The last page's number: a reply to an earlier page (its pick never collected, its conversion failed) is skipped. */
let lastId = 0;

function threadScript(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../../dist/src/extract/readability-worker.js', here) : new URL('./readability-worker.js', here);
}

function startThread(): Thread | null {
  const script = threadScript();
  if (!existsSync(fileURLToPath(script))) return null;
  const { port1, port2 } = new MessageChannel();
  const done = new Int32Array(new SharedArrayBuffer(4));
  const init: ReadabilityThreadInit = { port: port2, done };
  // The heap bound of the thread that converts (an extraction worker's), so a page either fits both or neither.
  const worker = new Worker(script, { workerData: init, transferList: [port2], resourceLimits });
  worker.unref();
  port1.unref();
  return { worker, port: port1, done };
}

/**
 * Starts Readability's pass on `html`; the function returned gives its pick (waiting for it if need be).
 * Call the returned function once, before the next start.
 */
export function startReadabilityPick(html: string): () => ReadabilityPick | null {
  thread ??= startThread();
  const t = thread;
  if (!t) return () => readabilityPick(html);
  const id = ++lastId;
  t.port.postMessage({ id, html } satisfies ReadabilityRequest);
  const started = Date.now();
  return () => {
    for (;;) {
      // Read before looking at the port: a reply posted after the look has bumped it, so the wait ends at once.
      const answered = Atomics.load(t.done, 0);
      const received = receiveMessageOnPort(t.port);
      if (!received) {
        const left = THREAD_WAIT_MS - (Date.now() - started);
        if (left > 0 && Atomics.wait(t.done, 0, answered, left) !== 'timed-out') continue;
        if (thread === t) thread = undefined;
        void t.worker.terminate();
        return readabilityPick(html);
      }
      const reply = received.message as ReadabilityReply;
      if (reply.id !== id) continue;
      if (!reply.ok) throw new Error(`Readability's thread failed: ${reply.error}`);
      return reply.pick;
    }
  };
}
