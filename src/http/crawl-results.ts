// One line of a crawl's results (GET /v1/crawls/{task_id}/results): the page's URL and depth (from its
// site.page task's input, so failed pages have them too), its status, the HTTP status and the result.
import type { BatchItem } from '../store/port.js';
import { toResultLine } from './batch-results.js';

export interface CrawlResultLine {
  index: number;
  url: string | null;
  depth: number | null;
  task_id: string | null;
  status: string;
  status_code: number | null;
  result: unknown;
  error: string | null;
  /** Why a failed page failed, when the failure has a code (BLOCKED_BY_SITE: a bot wall). */
  error_code?: string;
}

export function toCrawlLine(item: BatchItem): CrawlResultLine {
  const line = toResultLine(item);
  const input = (item.task?.input ?? null) as { url?: unknown; depth?: unknown } | null;
  const result = line.result as { status_code?: unknown } | null;
  return {
    index: line.index,
    url: typeof input?.url === 'string' ? input.url : null,
    depth: typeof input?.depth === 'number' ? input.depth : null,
    task_id: line.task_id,
    status: line.status,
    status_code: typeof result?.status_code === 'number' ? result.status_code : null,
    result: line.result,
    error: line.error,
    ...(item.task?.status === 'failed' && item.task.errorCode ? { error_code: item.task.errorCode } : {}),
  };
}
