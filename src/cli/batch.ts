// `agent-utility batch <tool> <input.csv|input.jsonl> [--out results.csv|results.jsonl]`: one batch, a
// progress bar (done/total, rate, ETA) on stderr when that is a terminal, then every result in input
// order, to --out (CSV or JSONL by its extension) or as JSONL on stdout. Against AGENT_UTILITY_URL with
// AGENT_UTILITY_KEY, or, with neither set, an embedded engine on the local data directory.
// Exit 0 when every item completed, 1 when any failed or was cancelled, 2 for a usage mistake.
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { readBatchInputs } from '../http/batch-input.js';
import { CSV_HEADER, toCsvLine, toResultLine, type ResultLine } from '../http/batch-results.js';
import { createLogger } from '../logger.js';
import type { BatchCounts } from '../store/port.js';
import { clientHeaders } from './call.js';
import { batchProgress, type BatchProgress } from './terminal-status.js';
import { CliFailure, CliUsageError } from './usage.js';

const USAGE = 'Usage: agent-utility batch <tool> <input.csv|input.jsonl> [--out results.csv|results.jsonl]';
const PAGE = 1000;

type Format = 'csv' | 'jsonl';

export interface BatchArgs {
  tool: string;
  file: string;
  out: string | undefined;
  format: Format;
}

export function parseBatchArgs(args: readonly string[]): BatchArgs {
  const positional: string[] = [];
  let out: string | undefined;
  let format: Format | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--out' || a === '--format') {
      const v = args[++i];
      if (v === undefined) throw new CliUsageError(`${a} needs a value. ${USAGE}`);
      if (a === '--out') out = v;
      else if (v === 'csv' || v === 'jsonl') format = v;
      else throw new CliUsageError(`--format must be csv or jsonl (got ${v}).`);
    } else if (a.startsWith('--')) throw new CliUsageError(`Unknown option ${a}. ${USAGE}`);
    else positional.push(a);
  }
  const [tool, file, ...extra] = positional;
  if (!tool || !file || extra.length > 0) throw new CliUsageError(USAGE);
  return { tool, file, out, format: format ?? (out && path.extname(out).toLowerCase() === '.csv' ? 'csv' : 'jsonl') };
}

/** How the input file is sent: its media type and body, from its extension. */
function inputUpload(file: string): { type: string; text: string } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new CliUsageError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  const ext = path.extname(file).toLowerCase();
  if (ext === '.csv') return { type: 'text/csv', text };
  if (ext === '.jsonl' || ext === '.ndjson') return { type: 'application/x-ndjson', text };
  throw new CliUsageError(`${file}: the input file must be .csv (header row = field names) or .jsonl (one JSON input per line).`);
}

async function parseInputs(upload: { type: string; text: string }, config: Config): Promise<unknown[]> {
  try {
    // The same reader and limits as the service's batch route.
    const format = upload.type === 'text/csv' ? 'csv' : 'ndjson';
    return await readBatchInputs([upload.text], format, { maxItems: config.batch.maxItems, maxBytes: Number.MAX_SAFE_INTEGER });
  } catch (err) {
    if (err instanceof AppError) throw new CliUsageError(err.message);
    throw err;
  }
}

/** A 400 listing bad rows, printed one row a line (a usage mistake: exit 2). */
function invalidBatch(err: { error?: string; errors?: { row: number; field: string | null; problem: string }[] }): CliUsageError {
  const rows = (err.errors ?? []).map((e) => `  row ${e.row}${e.field ? ` (${e.field})` : ''}: ${e.problem}`);
  return new CliUsageError([err.error ?? 'The batch is invalid.', ...rows].join('\n'));
}

/** Streams result lines into the output, in input order; counts those that did not complete. */
class ResultWriter {
  notComplete = 0;
  written = 0;
  private readonly fd: number;
  constructor(
    out: string | undefined,
    private readonly format: Format,
  ) {
    this.fd = out ? fs.openSync(out, 'w') : 1;
  }
  header(): void {
    if (this.format === 'csv') fs.writeSync(this.fd, CSV_HEADER);
  }
  lines(lines: readonly ResultLine[]): void {
    this.written += lines.length;
    for (const l of lines) if (l.status !== 'complete') this.notComplete++;
    fs.writeSync(this.fd, lines.map((l) => (this.format === 'csv' ? toCsvLine(l) : `${JSON.stringify(l)}\n`)).join(''));
  }
  close(): void {
    if (this.fd !== 1) fs.closeSync(this.fd);
  }
}

function settled(c: BatchCounts): number {
  return c.complete + c.failed + c.cancelled;
}

export async function runBatch(config: Config, args: string[]): Promise<number> {
  const a = parseBatchArgs(args);
  const upload = inputUpload(a.file);
  const progress = batchProgress();
  const writer = new ResultWriter(a.out, a.format);
  const started = Date.now();
  try {
    if (config.client.url) await batchRemote(config, a, upload, progress, writer);
    else await batchEmbedded(config, a, await parseInputs(upload, config), progress, writer);
  } finally {
    progress.stop();
    writer.close();
  }
  // One summary line on stderr, terminal or not: stdout may be the results themselves.
  const where = a.out ? ` → ${a.out}` : '';
  process.stderr.write(
    `${a.tool}: ${writer.written} item(s), ${writer.written - writer.notComplete} complete, ${writer.notComplete} not complete, ${((Date.now() - started) / 1000).toFixed(1)} s${where}\n`,
  );
  if (writer.notComplete > 0) {
    process.stderr.write(`${writer.notComplete} item(s) did not complete; see their status and error in the results.\n`);
    return 1;
  }
  return 0;
}

async function batchRemote(config: Config, a: BatchArgs, upload: { type: string; text: string }, progress: BatchProgress, writer: ResultWriter): Promise<void> {
  const base = config.client.url!;
  // The service answers 402 BATCH_NEEDS_API_KEY without a key: say it before uploading anything.
  if (!config.client.key) throw new CliUsageError('Batches are paid with an API key: set AGENT_UTILITY_KEY (or unset AGENT_UTILITY_URL to run locally).');
  const created = await fetch(`${base}/v1/tools/${encodeURIComponent(a.tool)}/batches`, {
    method: 'POST',
    headers: { 'content-type': upload.type, ...clientHeaders(config) },
    body: upload.text,
  });
  const body = (await created.json()) as { batch_id?: string; poll_url?: string; poll_token?: string; total?: number; error?: string };
  if (created.status === 400 || created.status === 404 || created.status === 413) throw invalidBatch(body);
  if (created.status !== 202) throw new CliFailure(body.error ?? `The service answered ${created.status}.`);
  const auth = { authorization: `Bearer ${body.poll_token}` };
  progress.update(0, body.total ?? 0);
  for (;;) {
    const r = await fetch(`${base}${body.poll_url}?wait=5`, { headers: auth });
    const view = (await r.json()) as { total: number; counts: BatchCounts; status: string; error?: string };
    if (!r.ok) throw new CliFailure(view.error ?? `The service answered ${r.status}.`);
    progress.update(settled(view.counts), view.total);
    if (view.status === 'complete' || view.status === 'cancelled') break;
  }
  writer.header();
  let cursor: string | null = '0';
  while (cursor !== null) {
    const r: Response = await fetch(`${base}/v1/batches/${body.batch_id}/results?format=jsonl&cursor=${cursor}&limit=${PAGE}`, { headers: auth });
    if (!r.ok) throw new CliFailure(`Reading the results failed: the service answered ${r.status}.`);
    const text = await r.text();
    writer.lines(
      text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as ResultLine),
    );
    cursor = r.headers.get('x-next-cursor');
  }
}

async function batchEmbedded(config: Config, a: BatchArgs, inputs: unknown[], progress: BatchProgress, writer: ResultWriter): Promise<void> {
  const { createRuntime } = await import('../runtime.js');
  const { submitBatch, validateBatch, batchDone } = await import('../engine/batches.js');
  const rt = await createRuntime(config, { log: createLogger('error'), workers: true, ownTasks: true });
  try {
    const validated = await validateBatch(rt.engine, a.tool, inputs).catch((err: unknown) => {
      if (err instanceof AppError && err.status < 500) {
        throw invalidBatch({ error: err.message, errors: (err.extra as { errors?: [] } | undefined)?.errors ?? [] });
      }
      throw err;
    });
    rt.engine.start();
    const batch = await submitBatch(rt.engine, a.tool, validated, { payer: { kind: 'local', id: 'cli' }, free: true });
    for (;;) {
      const counts = await rt.store.batchCounts(batch.id);
      progress.update(settled(counts), batch.total);
      if (batchDone(counts)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    writer.header();
    for (let from = 0; from < batch.total; from += PAGE) writer.lines((await rt.store.listBatchItems(batch.id, from, PAGE)).map(toResultLine));
  } finally {
    await rt.close();
  }
}
