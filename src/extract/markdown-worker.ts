// The worker thread's side of the extraction pool: it receives a page's HTML or a fetched document, converts
// it and posts the result back. Nothing else runs here, so a long conversion (a 4 MB page, a 400-page PDF)
// holds only this thread. A ToolError keeps its kind on the way back (a broken PDF is the caller's input).
import { parentPort } from 'node:worker_threads';
import { ToolError } from '../errors.js';
import { htmlToMarkdown, type MarkdownContent } from './markdown.js';
import { convertDocument, type DocumentJob } from './document/convert-document.js';
import type { WorkerReply } from './worker-pool.js';

export interface MarkdownJob {
  kind: 'page';
  html: string;
  title: string;
  content: MarkdownContent;
  /** Set for HTML whose links are still relative (the server's copy of a page). */
  baseUrl?: string;
  /** Steps and rules switched off by name (steps.ts). */
  off?: string[];
  /** Adds the trace of what each step and rule removed or chose. */
  debug?: boolean;
}

export type ExtractionJob = MarkdownJob | ({ kind: 'document' } & DocumentJob);

async function run(job: ExtractionJob): Promise<unknown> {
  if (job.kind === 'document') return convertDocument(job);
  const { baseUrl, off, debug } = job;
  return htmlToMarkdown(job.html, job.title, job.content, { ...(baseUrl ? { baseUrl } : {}), ...(off?.length ? { off } : {}), ...(debug ? { debug } : {}) });
}

parentPort?.on('message', (job: ExtractionJob) => {
  run(job).then(
    (value) => parentPort?.postMessage({ ok: true, value } satisfies WorkerReply),
    (err: unknown) => {
      const reply: WorkerReply = {
        ok: false,
        error: err instanceof Error ? err.message : String(err),
        ...(err instanceof ToolError ? { toolErrorKind: err.kind } : {}),
      };
      parentPort?.postMessage(reply);
    },
  );
});
