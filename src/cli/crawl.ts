// `agent-utility crawl <url> [--limit N] [--depth N] [--render] [--out pages.jsonl]`: one site.crawl, a
// progress bar (pages settled / created) on stderr when that is a terminal, then every page in crawl order
// as JSONL (the lines of /v1/crawls/{id}/results) to --out or stdout. Against AGENT_UTILITY_URL with
// AGENT_UTILITY_KEY, or, with neither set, an embedded engine on the local data directory (free).
// Exit 0 when every page completed, 1 when any failed or the crawl did, 2 for a usage mistake.
import fs from 'node:fs';
import type { Config } from '../config.js';
import { toCrawlLine, type CrawlResultLine } from '../http/crawl-results.js';
import { createLogger } from '../logger.js';
import { childBatchId } from '../registry/child-tasks.js';
import { clientHeaders } from './call.js';
import { batchProgress, type BatchProgress } from './terminal-status.js';
import { CliFailure, CliUsageError } from './usage.js';

const USAGE = 'Usage: agent-utility crawl <url> [--limit N] [--depth N] [--render] [--sources links|sitemaps|both] [--out pages.jsonl]';
const PAGE = 1000;

export function parseCrawlArgs(args: readonly string[]): { input: Record<string, unknown>; out: string | undefined } {
  const input: Record<string, unknown> = {};
  let out: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new CliUsageError(`${a} needs a value. ${USAGE}`);
      return v;
    };
    const whole = (name: string) => {
      const v = value();
      if (!/^\d+$/.test(v)) throw new CliUsageError(`${a} must be a whole number (got ${v}).`);
      input[name] = Number(v);
    };
    if (a === '--out') out = value();
    else if (a === '--limit') whole('limit');
    else if (a === '--depth') whole('max_depth');
    else if (a === '--render') input.render = true;
    else if (a === '--sources') input.sources = value();
    else if (a.startsWith('--')) throw new CliUsageError(`Unknown option ${a}. ${USAGE}`);
    else if (input.url === undefined) input.url = a;
    else throw new CliUsageError(USAGE);
  }
  if (input.url === undefined) throw new CliUsageError(USAGE);
  return { input, out };
}

export async function runCrawl(config: Config, args: string[]): Promise<number> {
  const { input, out } = parseCrawlArgs(args);
  const progress = batchProgress();
  const fd = out ? fs.openSync(out, 'w') : 1;
  let notComplete = 0;
  const write = (lines: CrawlResultLine[]) => {
    for (const l of lines) if (l.status !== 'complete') notComplete++;
    fs.writeSync(fd, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
  };
  try {
    if (config.client.url) await crawlRemote(config, input, progress, write);
    else await crawlEmbedded(config, input, progress, write);
  } finally {
    progress.stop();
    if (fd !== 1) fs.closeSync(fd);
  }
  if (notComplete > 0) {
    process.stderr.write(`${notComplete} page(s) did not complete; see their status and error in the results.\n`);
    return 1;
  }
  return 0;
}

async function crawlRemote(config: Config, input: Record<string, unknown>, progress: BatchProgress, write: (l: CrawlResultLine[]) => void): Promise<void> {
  const base = config.client.url!;
  if (!config.client.key) throw new CliUsageError('Crawls are paid with an API key: set AGENT_UTILITY_KEY (or unset AGENT_UTILITY_URL to run locally).');
  const created = await fetch(`${base}/v1/tools/site.crawl/tasks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...clientHeaders(config) },
    body: JSON.stringify(input),
  });
  const body = (await created.json()) as { task_id?: string; poll_url?: string; poll_token?: string; error?: string };
  if (created.status === 400) throw new CliUsageError(body.error ?? 'The crawl is invalid.');
  if (created.status !== 202) throw new CliFailure(body.error ?? `The service answered ${created.status}.`);
  const auth = { authorization: `Bearer ${body.poll_token}` };
  let task: { status: string; error?: string; result?: { results_url: string } };
  for (;;) {
    const r = await fetch(`${base}${body.poll_url}?wait=5`, { headers: auth });
    task = (await r.json()) as typeof task;
    if (!r.ok) throw new CliFailure(task.error ?? `The service answered ${r.status}.`);
    if (!['pending', 'running', 'working', 'submitted'].includes(task.status)) break;
    // The pages so far are the items of the crawl's batch, readable with the key that created it.
    const pages = await fetch(`${base}/v1/batches/${childBatchId(body.task_id!)}`, { headers: clientHeaders(config) });
    if (pages.ok) {
      const view = (await pages.json()) as { total: number; counts: Record<string, number> };
      progress.update((view.counts.complete ?? 0) + (view.counts.failed ?? 0) + (view.counts.cancelled ?? 0), view.total);
    }
  }
  if (task.status !== 'complete' || !task.result) throw new CliFailure(`The crawl ${task.status}: ${task.error ?? 'no result'}`);
  let next: string | null = `${task.result.results_url}&limit=${PAGE}`;
  while (next !== null) {
    const r: Response = await fetch(`${base}${next}`);
    if (!r.ok) throw new CliFailure(`Reading the results failed: the service answered ${r.status}.`);
    write(
      (await r.text())
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as CrawlResultLine),
    );
    const link = r.headers.get('link');
    next = link ? (/<([^>]+)>/.exec(link)?.[1] ?? null) : null;
  }
}

async function crawlEmbedded(config: Config, input: Record<string, unknown>, progress: BatchProgress, write: (l: CrawlResultLine[]) => void): Promise<void> {
  const { createRuntime } = await import('../runtime.js');
  const rt = await createRuntime(config, { log: createLogger('error'), workers: true, ownTasks: true });
  try {
    const validated = await rt.engine.validate('site.crawl', input).catch((err: unknown) => {
      throw new CliUsageError((err as Error).message);
    });
    const { task } = await rt.engine.submit('site.crawl', validated, { payer: { kind: 'local', id: 'cli' }, free: true });
    rt.engine.events.on('progress', (p) => {
      if (p.taskId === task.id && p.total !== undefined) progress.update(p.done, p.total);
    });
    const done = await rt.engine.waitFor(task.id, 24 * 60 * 60 * 1000);
    if (done?.status !== 'complete') throw new CliFailure(`The crawl ${done?.status ?? 'vanished'}: ${done?.error ?? ''}`);
    for (let from = 0; ; from += PAGE) {
      const items = await rt.store.listBatchItems(childBatchId(task.id), from, PAGE);
      write(items.map(toCrawlLine));
      if (items.length < PAGE) break;
    }
  } finally {
    await rt.close();
  }
}
