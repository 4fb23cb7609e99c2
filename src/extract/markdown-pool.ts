// browser.markdown's conversion, off the event loop: the page's HTML (or a fetched document's bytes) goes to
// a worker thread of a small pool (one per core, at most four), which parses, extracts and converts it there. The DOM is handed over
// as its serialised HTML, the only form that crosses threads.
import { availableParallelism } from 'node:os';
import type { ConvertedDocument, DocumentJob } from './document/convert-document.js';
import type { ExtractionJob, MarkdownJob } from './markdown-worker.js';
import type { MarkdownContent, MarkdownResult } from './markdown.js';
import { WorkerPool } from './worker-pool.js';

/** Workers at most: beyond the cores they only share them, and each may hold a large page's DOM. */
const MAX_WORKERS = 4;
/** A worker's heap: a 10 MB page's DOM fits many times over; a hostile one fails its task, not the service. */
const WORKER_HEAP_MB = 2048;

let pool: WorkerPool | undefined;

/**
 * The worker's built module. Run from the TypeScript sources (the test runner), the worker still needs
 * JavaScript, so it is the build's copy (`npm run build` first, as for the CLI tests).
 */
function workerScript(): URL {
  const here = import.meta.url;
  return here.endsWith('.ts') ? new URL('../../dist/src/extract/markdown-worker.js', here) : new URL('./markdown-worker.js', here);
}

function sharedPool(): WorkerPool {
  pool ??= new WorkerPool({ script: workerScript(), size: Math.max(1, Math.min(MAX_WORKERS, availableParallelism())), maxHeapMb: WORKER_HEAP_MB });
  return pool;
}

/** What htmlToMarkdown is asked besides the page: its URL for relative links, switches and the trace. */
export type WorkerExtractOptions = Pick<MarkdownJob, 'baseUrl' | 'off' | 'debug'>;

/** htmlToMarkdown in a worker thread; rejects with the signal's reason when the caller gives up. */
export function markdownInWorker(
  html: string,
  title: string,
  content: MarkdownContent,
  signal?: AbortSignal,
  options: WorkerExtractOptions = {},
): Promise<MarkdownResult> {
  const job: ExtractionJob = { kind: 'page', html, title, content, ...options };
  return sharedPool().run<MarkdownResult>(job, signal);
}

/**
 * A fetched document read in a worker thread: pdf.js's parsing and the layout work on a large PDF (or
 * mammoth and Turndown on a DOCX) take seconds of computation that would otherwise hold the event loop.
 */
export function documentInWorker(job: DocumentJob, signal?: AbortSignal): Promise<ConvertedDocument> {
  const message: ExtractionJob = { kind: 'document', ...job };
  return sharedPool().run<ConvertedDocument>(message, signal);
}
