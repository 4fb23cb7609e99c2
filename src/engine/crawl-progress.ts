// How far a running crawl has got, for its task view: counted from its pages (child tasks in the batch
// named after it), so any process answers it and it is never ahead of what was committed. Pages found but
// not yet created (still in the crawler's frontier, e.g. waiting out a Crawl-delay) are not counted yet.
import { childBatchId } from '../registry/child-tasks.js';
import type { TaskRow, TaskStore } from '../store/port.js';

/** The tool whose tasks fan out into pages. */
const CRAWL_TOOL = 'site.crawl';

export interface CrawlProgress {
  /** Pages fetched and settled with a result. */
  pages_done: number;
  /** Pages created and waiting for a worker, or being fetched now. */
  pages_queued: number;
  pages_running: number;
  /** Pages that failed (or were cancelled). */
  pages_failed: number;
}

/** The progress of a crawl that has not finished; undefined for other tasks and for finished crawls (their result has `counts`). */
export async function crawlProgress(store: TaskStore, task: Pick<TaskRow, 'id' | 'tool' | 'status'>): Promise<CrawlProgress | undefined> {
  if (task.tool !== CRAWL_TOOL || (task.status !== 'pending' && task.status !== 'running')) return undefined;
  const c = await store.batchCounts(childBatchId(task.id));
  return { pages_done: c.complete ?? 0, pages_queued: c.pending ?? 0, pages_running: c.running ?? 0, pages_failed: (c.failed ?? 0) + (c.cancelled ?? 0) };
}
