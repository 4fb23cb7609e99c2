// One page of a batch's results, written as it is read. The page is planned from the items' result sizes
// (no result read yet): it ends where the next line would pass the byte budget (a page always holds at
// least one line, so it advances), and the cursor of the next page is known before the first byte is
// sent. Then each distinct task's result is read once, its lines written with backpressure, so the
// process holds about one page's distinct results however many items repeat them or however big they are.
import { once } from 'node:events';
import type { Response } from 'express';
import type { BatchItemRef } from '../store/port.js';
import { CSV_HEADER, toCsvLine, toResultLine, type ResultItem } from './batch-results.js';

/** Bytes of results one page carries at most (beyond its first line). */
export const RESULTS_PAGE_BYTES = 8 * 1024 * 1024;

/** What a line costs besides its result: index, id, status and the JSON around them. */
const LINE_OVERHEAD_BYTES = 100;

export interface PagePlan {
  items: BatchItemRef[];
  /** The index the next page starts at, or null when this page reaches the batch's end. */
  next: number | null;
}

export function planResultsPage(refs: BatchItemRef[], total: number, budgetBytes = RESULTS_PAGE_BYTES): PagePlan {
  let used = 0;
  let take = 0;
  for (const r of refs) {
    const cost = LINE_OVERHEAD_BYTES + (r.resultBytes ?? 0) + (r.error?.length ?? 0);
    if (take > 0 && used + cost > budgetBytes) break;
    used += cost;
    take++;
  }
  const items = refs.slice(0, take);
  const last = items[items.length - 1];
  return { items, next: last && last.index + 1 < total ? last.index + 1 : null };
}

export interface WritePageOptions {
  format: 'jsonl' | 'csv';
  withCsvHeader: boolean;
  readResult: (taskId: string) => Promise<unknown>;
}

/** Streams the planned lines; stops early if the client goes away. */
export async function writeResultsPage(res: Response, items: BatchItemRef[], o: WritePageOptions): Promise<void> {
  let gone = false;
  res.on('close', () => {
    gone = true;
  });
  const results = new Map<string, unknown>();
  const write = async (chunk: string) => {
    if (!res.write(chunk) && !gone) await Promise.race([once(res, 'drain'), once(res, 'close')]);
  };
  if (o.format === 'csv' && o.withCsvHeader) await write(CSV_HEADER);
  for (const ref of items) {
    if (gone) break;
    let task: ResultItem['task'] = null;
    if (ref.taskId !== null && ref.status !== null) {
      let result: unknown = null;
      if (ref.status === 'complete') {
        if (!results.has(ref.taskId)) results.set(ref.taskId, await o.readResult(ref.taskId));
        result = results.get(ref.taskId);
      }
      task = { id: ref.taskId, status: ref.status, result, error: ref.error };
    }
    const line = toResultLine({ index: ref.index, task });
    await write(o.format === 'csv' ? toCsvLine(line) : `${JSON.stringify(line)}\n`);
  }
  res.end();
}
