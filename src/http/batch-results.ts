// One page of a batch's results in input order, as JSONL or CSV. Each line is one input position;
// duplicates repeat their shared task's answer. CSV keeps the result as a JSON cell: results differ by
// tool and by status, and a fixed column set would drop fields.
import { stringify } from 'csv-stringify/sync';
import type { BatchItem } from '../store/port.js';

export interface ResultLine {
  index: number;
  task_id: string | null;
  status: string;
  result: unknown;
  error: string | null;
}

export function toResultLine(item: BatchItem): ResultLine {
  const t = item.task;
  if (!t) return { index: item.index, task_id: null, status: 'expired', result: null, error: 'This result is past the retention period.' };
  return {
    index: item.index,
    task_id: t.id,
    status: t.status,
    result: t.status === 'complete' ? t.result : null,
    error: t.status === 'failed' || t.status === 'cancelled' ? t.error : null,
  };
}

export const CSV_HEADER = 'index,task_id,status,error,result\r\n';

/**
 * One result line as a CSV record. A cell a spreadsheet would read as a formula (starting with = + - @,
 * a tab or a carriage return; an error message or a result can start with text a caller chose) is
 * written with a leading apostrophe, which spreadsheets show as text (csv-stringify's escape_formulas).
 */
export function toCsvLine(l: ResultLine): string {
  const row = [String(l.index), l.task_id ?? '', l.status, l.error ?? '', l.result === null ? '' : JSON.stringify(l.result)];
  return stringify([row], { record_delimiter: 'windows', escape_formulas: true });
}
