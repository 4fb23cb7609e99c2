// REST batches: create (POST /v1/tools/{tool}/batches), read and wait (GET /v1/batches/{id}), results in
// input order (GET /v1/batches/{id}/results) and cancel. Credentials work as for tasks: the API key that
// created the batch, or its poll token. results_url is a read-only signed link (?expires=&sig=) that opens
// the results and nothing else; ?token=<poll token> is still accepted there for links made before it.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { PollTokens } from '../../auth/poll-token.js';
import { batchDone, submitBatch, validateBatch } from '../../engine/batches.js';
import type { Engine } from '../../engine/engine.js';
import { resolveSecret } from '../../auth/secret.js';
import { crawlResultsLinkSignature, resultsLinkQuery, resultsLinkSignature } from '../../auth/results-link.js';
import { Forbidden, Gone, InvalidInput, NotFound, PaymentRequired, Unauthorized } from '../../errors.js';
import { microsToUsd } from '../../registry/registry.js';
import type { BatchCounts, BatchRow } from '../../store/port.js';
import { readCredential } from '../../web/credential.js';
import { batchFormatOf, readBatchInputs } from '../batch-input.js';
import { planResultsPage, writeResultsPage } from '../batch-results-page.js';
import { toCrawlLine } from '../crawl-results.js';
import { childBatchId } from '../../registry/child-tasks.js';
import { applyRateLimit, type Limiter } from '../../web/rate-limit.js';
import { netGuardService } from '../../net/guard.js';
import { parseWebhookOptions } from '../../webhooks/options.js';

export interface BatchRoutesDeps {
  engine: Engine;
  pollTokens: PollTokens;
  keyLimiter: Limiter;
  x402Enabled: boolean;
}

const waitQuery = z.object({
  wait: z.coerce.number().min(0, 'must be 0 to 30 seconds').max(30, 'must be at most 30 seconds').optional(),
});
const resultsQuery = z.object({
  format: z.enum(['jsonl', 'csv'], 'must be jsonl or csv').default('jsonl'),
  cursor: z.coerce.number().int('must be a whole number').min(0, 'must be 0 or more').default(0),
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be 1 to 1000').max(1000, 'must be at most 1000').default(1000),
  token: z.string().optional(),
  expires: z.string().optional(),
  sig: z.string().optional(),
});

export function batchRoutes(d: BatchRoutesDeps): Router {
  const r = Router();
  const secret = () => resolveSecret(d.engine.config);

  r.post('/v1/tools/:tool/batches', async (req: Request, res: Response) => {
    const toolName = String(req.params.tool);
    d.engine.registry.get(toolName);
    // Who pays is decided from the headers before a byte of the body is read: a body of up to
    // BATCH_BODY_LIMIT_BYTES costs nothing to refuse when nobody could pay for it.
    const credential = await readCredential(req, d.engine.store);
    if (credential.kind === 'poll-token')
      throw new Unauthorized('A poll token only reads its task or batch; create batches with an API key.', 'WRONG_CREDENTIAL');
    if (credential.kind === 'bearer') throw new Unauthorized('Unrecognised bearer token: API keys start with sk_.', 'INVALID_API_KEY');
    if (credential.kind !== 'key') {
      // One x402 "exact" payment settles a fixed amount: it cannot give back the price of items that fail
      // through no fault of their input, which a key's ledger does. See docs/payments.md.
      throw new PaymentRequired(
        'Batches are paid with a prepaid API key ("Authorization: Bearer sk_…"): a single x402 payment cannot refund items that fail.' +
          (d.x402Enabled ? ' Pay per task with x402 at POST /v1/tools/{tool}/tasks instead.' : ''),
        'BATCH_NEEDS_API_KEY',
      );
    }
    await applyRateLimit(d.keyLimiter, `key:${credential.key.id}`, res);
    // The body may be NDJSON or CSV, so a batch's webhook comes as query parameters (?webhook_url=…).
    const webhook = parseWebhookOptions(
      { webhook_url: req.query.webhook_url, webhook_events: req.query.webhook_events },
      'batch',
      await d.engine.scope.use(netGuardService),
    );
    // Every input is checked before the key is charged, so a bad upload costs nothing.
    const inputs = await validateBatch(d.engine, toolName, await readBody(req, res), { chargeKeyId: credential.key.id });
    const batch = await submitBatch(d.engine, toolName, inputs, {
      payer: { kind: 'key', id: credential.key.id },
      chargeKeyId: credential.key.id,
      ...(webhook ? { webhook } : {}),
    });
    const pollUrl = `/v1/batches/${batch.id}`;
    res.setHeader('Location', pollUrl);
    res.status(202).json({
      batch_id: batch.id,
      poll_token: await d.pollTokens.issue(batch.id),
      status: 'pending',
      poll_url: pollUrl,
      total: batch.total,
      unique: batch.unique,
      price_usd: microsToUsd(batch.priceMicros),
    });
  });

  r.get('/v1/batches/:id', async (req: Request, res: Response) => {
    const q = waitQuery.safeParse(req.query);
    if (!q.success) throw new InvalidInput(`wait: ${q.error.issues[0]?.message}`, 'wait');
    const batch = await authorize(req, String(req.params.id));
    let counts = await d.engine.store.batchCounts(batch.id);
    if (q.data.wait && !batchDone(counts)) {
      const ac = new AbortController();
      res.on('close', () => ac.abort());
      counts = await waitForBatch(batch.id, q.data.wait * 1000, ac.signal);
    }
    res.json(await batchView(batch, counts));
  });

  r.get('/v1/batches/:id/results', async (req: Request, res: Response) => {
    const q = resultsQuery.safeParse(req.query);
    if (!q.success) {
      const issue = q.error.issues[0];
      throw new InvalidInput(`${String(issue?.path[0] ?? 'query')}: ${issue?.message}`, String(issue?.path[0] ?? 'query'));
    }
    const id = String(req.params.id);
    const signed = q.data.sig !== undefined || q.data.expires !== undefined;
    const batch = signed ? await authorizeLink(id, q.data.expires, q.data.sig) : await authorize(req, id, q.data.token);
    const refs = await d.engine.store.listBatchItemRefs(batch.id, q.data.cursor, q.data.limit);
    const { items, next } = planResultsPage(refs, batch.total);
    if (next !== null) {
      const link = new URLSearchParams({
        format: q.data.format,
        cursor: String(next),
        limit: String(q.data.limit),
        ...(signed ? { expires: q.data.expires!, sig: q.data.sig! } : q.data.token ? { token: q.data.token } : {}),
      });
      res.setHeader('Link', `</v1/batches/${batch.id}/results?${link}>; rel="next"`);
      res.setHeader('X-Next-Cursor', String(next));
    }
    res.type(q.data.format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    await writeResultsPage(res, items, {
      format: q.data.format,
      withCsvHeader: q.data.cursor === 0,
      readResult: (id) => d.engine.store.getTaskResult(id),
    });
  });

  // A crawl's pages (site.crawl): the items of its children's batch, with the credential of the crawl task.
  r.get('/v1/crawls/:id/results', async (req: Request, res: Response) => {
    const q = resultsQuery.safeParse(req.query);
    if (!q.success) {
      const issue = q.error.issues[0];
      throw new InvalidInput(`${String(issue?.path[0] ?? 'query')}: ${issue?.message}`, String(issue?.path[0] ?? 'query'));
    }
    if (q.data.format !== 'jsonl') throw new InvalidInput("format: a crawl's results are JSONL only.", 'format');
    const taskId = String(req.params.id);
    // results_url is a signed read-only link; ?token=<poll token> is still accepted for links made before it.
    const signed = q.data.sig !== undefined || q.data.expires !== undefined;
    const credential = signed
      ? { kind: 'link' as const }
      : q.data.token
        ? { kind: 'poll-token' as const, token: q.data.token }
        : await readCredential(req, d.engine.store);
    if (credential.kind === 'link') {
      const check = crawlResultsLinkSignature.check(secret(), taskId, q.data.expires, q.data.sig);
      if (check === 'invalid') throw new Forbidden('This results link is not valid: use results_url exactly as returned.', 'INVALID_SIGNATURE');
      if (check === 'expired')
        throw new Gone('This results link has expired (links last 24 hours): read the pages with the API key that created the crawl.', 'LINK_EXPIRED');
    } else if (credential.kind === 'poll-token') await d.pollTokens.verifyFor(credential.token, taskId);
    else if (credential.kind !== 'key') throw new Unauthorized('Send the results_url link or the API key that created the crawl.', 'MISSING_CREDENTIAL');
    const task = await d.engine.store.getTask(taskId);
    if (!task || task.tool !== 'site.crawl') throw new NotFound(`No crawl ${taskId}.`, 'TASK_NOT_FOUND');
    if (credential.kind === 'key' && (task.payer.kind !== 'key' || task.payer.id !== credential.key.id)) {
      throw new Forbidden('This crawl was created with another credential.', 'NOT_YOUR_TASK');
    }
    const items = await d.engine.store.listBatchItems(childBatchId(taskId), q.data.cursor, q.data.limit);
    if (items.length === q.data.limit) {
      const next = items[items.length - 1]!.index + 1;
      const link = new URLSearchParams({
        format: 'jsonl',
        cursor: String(next),
        limit: String(q.data.limit),
        ...(signed ? { expires: q.data.expires!, sig: q.data.sig! } : q.data.token ? { token: q.data.token } : {}),
      });
      res.setHeader('Link', `</v1/crawls/${taskId}/results?${link}>; rel="next"`);
      res.setHeader('X-Next-Cursor', String(next));
    }
    res.type('application/x-ndjson; charset=utf-8');
    res.send(items.map((i) => `${JSON.stringify(toCrawlLine(i))}\n`).join(''));
  });

  r.post('/v1/batches/:id/cancel', async (req: Request, res: Response) => {
    const batch = await authorize(req, String(req.params.id));
    const cancelled = await d.engine.store.cancelBatch(batch.id, Date.now());
    for (const t of cancelled) d.engine.events.emit('settled', t, null);
    const counts = await d.engine.store.batchCounts(batch.id);
    res.json({ ...(await batchView(batch, counts)), cancelled_now: cancelled.length });
  });

  /** The batch, if the results link's signature holds for it and has not expired. */
  async function authorizeLink(id: string, expires: string | undefined, sig: string | undefined): Promise<BatchRow> {
    const check = resultsLinkSignature.check(secret(), id, expires, sig);
    if (check === 'invalid') throw new Forbidden('This results link is not valid: use results_url exactly as returned.', 'INVALID_SIGNATURE');
    if (check === 'expired') throw new Gone('This results link has expired (links last 24 hours): read the batch again for a new one.', 'LINK_EXPIRED');
    const batch = await d.engine.store.getBatch(id);
    if (!batch) throw new NotFound(`No batch ${id}.`, 'BATCH_NOT_FOUND');
    return batch;
  }

  /** The inputs, read as the body streams in; a refusal mid-body closes the connection after answering. */
  async function readBody(req: Request, res: Response): Promise<unknown[]> {
    try {
      return await readBatchInputs(req, batchFormatOf(req), { maxItems: d.engine.config.batch.maxItems, maxBytes: d.engine.config.batch.bodyLimitBytes });
    } catch (err) {
      if (!req.readableEnded) {
        // The rest of the body is not worth reading: drop it as it arrives and end the connection after the answer.
        res.setHeader('Connection', 'close');
        req.resume();
      }
      throw err;
    }
  }

  /** The batch, if the request carries its poll token or the API key that created it. */
  async function authorize(req: Request, id: string, queryToken?: string): Promise<BatchRow> {
    const credential = queryToken ? { kind: 'poll-token' as const, token: queryToken } : await readCredential(req, d.engine.store);
    if (credential.kind === 'poll-token') await d.pollTokens.verifyFor(credential.token, id);
    else if (credential.kind === 'key') await applyRateLimit(d.keyLimiter, `key:${credential.key.id}`, req.res!);
    else if (credential.kind === 'bearer')
      throw new Unauthorized('Unrecognised bearer token: use the poll token (pt_…) or the API key (sk_…).', 'INVALID_TOKEN');
    else throw new Unauthorized('Send "Authorization: Bearer <poll_token>" (returned when the batch was created).', 'MISSING_CREDENTIAL');
    const batch = await d.engine.store.getBatch(id);
    if (!batch) throw new NotFound(`No batch ${id}.`, 'BATCH_NOT_FOUND');
    if (credential.kind === 'key' && (batch.payer.kind !== 'key' || batch.payer.id !== credential.key.id)) {
      throw new Forbidden('This batch was created with another credential.', 'NOT_YOUR_BATCH');
    }
    return batch;
  }

  async function batchView(batch: BatchRow, counts: BatchCounts) {
    const settled = counts.complete + counts.failed + counts.cancelled;
    const done = batchDone(counts);
    let results: Record<string, string> | undefined;
    if (done) {
      // Read-only signed links: they work without the API key and can do nothing but read the results.
      const link = new URLSearchParams(resultsLinkQuery(secret(), batch.id)).toString();
      const base = `/v1/batches/${batch.id}/results`;
      results = { jsonl: `${base}?format=jsonl&${link}`, csv: `${base}?format=csv&${link}` };
    }
    return {
      batch_id: batch.id,
      tool: batch.tool,
      status: done ? (counts.cancelled === batch.total ? 'cancelled' : 'complete') : settled === 0 && counts.running === 0 ? 'pending' : 'running',
      total: batch.total,
      unique: batch.unique,
      counts,
      progress: batch.total === 0 ? 1 : settled / batch.total,
      price_usd: microsToUsd(batch.priceMicros),
      created_at: new Date(batch.createdAt).toISOString(),
      ...(results ? { results_url: results.jsonl, results_urls: results } : {}),
    };
  }

  /** Polls the counts until every item settled or the wait ends (items settle in any process). */
  async function waitForBatch(id: string, ms: number, signal: AbortSignal): Promise<BatchCounts> {
    const deadline = Date.now() + ms;
    for (;;) {
      const counts = await d.engine.store.batchCounts(id);
      if (batchDone(counts) || Date.now() >= deadline || signal.aborted) return counts;
      await new Promise((resolve) => setTimeout(resolve, Math.min(d.engine.config.engine.pollIntervalMs, Math.max(0, deadline - Date.now()))));
    }
  }

  return r;
}
