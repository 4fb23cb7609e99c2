// The worker thread's side of the extraction pool: it receives a page's HTML, converts it and posts the
// result back. Nothing else runs here, so a long conversion holds only this thread.
import { parentPort } from 'node:worker_threads';
import { htmlToMarkdown, type MarkdownContent } from './markdown.js';
import type { WorkerReply } from './worker-pool.js';

export interface MarkdownJob {
  html: string;
  title: string;
  content: MarkdownContent;
}

parentPort?.on('message', (job: MarkdownJob) => {
  let reply: WorkerReply;
  try {
    reply = { ok: true, value: htmlToMarkdown(job.html, job.title, job.content) };
  } catch (err) {
    reply = { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort?.postMessage(reply);
});
