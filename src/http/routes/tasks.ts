// REST tasks: create (POST /v1/tools/{tool}/tasks), read and wait (GET /v1/tasks/{id}), cancel.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { PollTokens } from '../../auth/poll-token.js';
import type { PaymentGate } from '../../billing/payment-gate.js';
import type { Engine, SubmitOptions } from '../../engine/engine.js';
import { toTaskView } from '../../engine/task-view.js';
import { Forbidden, InvalidInput, NotFound, PaymentRequired, Unauthorized } from '../../errors.js';
import type { TaskRow } from '../../store/port.js';
import { readCredential } from '../../web/credential.js';
import { requireJson } from '../../web/errors.js';
import { applyRateLimit, type RateLimiter } from '../../web/rate-limit.js';
import { microsToUsd } from '../../registry/registry.js';

export interface TaskRoutesDeps {
  engine: Engine;
  pollTokens: PollTokens;
  keyLimiter: RateLimiter;
  paymentGate: PaymentGate | undefined;
  publicUrl: string;
  /** Extra ways to prove who may read a task (SIWX); returns true when the request may read it. */
  readAuthorizers?: ((req: Request, task: TaskRow) => Promise<boolean>)[];
}

const waitQuery = z.object({
  wait: z.coerce.number().min(0, 'must be 0 to 30 seconds').max(30, 'must be at most 30 seconds').optional(),
});

const idempotencyKey = z.string().min(1).max(255, 'must be at most 255 characters').regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces');

export function taskRoutes(d: TaskRoutesDeps): Router {
  const r = Router();

  r.post('/v1/tools/:tool/tasks', requireJson, async (req: Request, res: Response) => {
    const toolName = String(req.params.tool);
    const tool = d.engine.registry.get(toolName);
    const credential = await readCredential(req, d.engine.store);
    // Unknown tool (404) and bad input (400) are answered before anyone is asked to pay.
    const input = await d.engine.validate(toolName, req.body ?? {});
    const rawKey = req.get('idempotency-key');
    const parsedKey = rawKey === undefined ? undefined : idempotencyKey.safeParse(rawKey);
    if (parsedKey && !parsedKey.success) throw new InvalidInput(`Idempotency-Key ${parsedKey.error.issues[0]?.message}`, 'Idempotency-Key');
    const resourceUrl = `${d.publicUrl}/v1/tools/${toolName}/tasks`;

    let opts: SubmitOptions;
    if (credential.kind === 'key') {
      applyRateLimit(d.keyLimiter, `key:${credential.key.id}`, res);
      opts = { payer: { kind: 'key', id: credential.key.id }, chargeKeyId: credential.key.id };
    } else if (credential.kind === 'poll-token') {
      throw new Unauthorized('A poll token only reads its task; create tasks with an API key or an x402 payment.', 'WRONG_CREDENTIAL');
    } else if (credential.kind === 'bearer') {
      throw new Unauthorized('Unrecognised bearer token: API keys start with sk_.', 'INVALID_API_KEY');
    } else {
      const gate = d.paymentGate;
      const paid = gate?.headerNames.some((h) => req.get(h) !== undefined);
      if (gate && paid) {
        const verified = await gate.verify(tool, headersOf(req), resourceUrl);
        opts = { payer: verified.payer, nonce: verified.nonce, payment: verified.payment };
      } else {
        const reqs = gate?.requirements(tool, resourceUrl);
        throw new PaymentRequired(
          `Payment required: ${toolName} costs ${tool.price} USD. Send "Authorization: Bearer sk_…" with a prepaid API key` +
            (gate ? ', or pay per request with x402 (see accepts).' : '. (x402 payments are not enabled on this server.)'),
          'PAYMENT_REQUIRED',
          {
            price_usd: tool.price,
            ways_to_pay: {
              api_key: { header: 'Authorization: Bearer sk_live_…', how: 'Ask the operator for a key (agent-utility keys create).' },
              x402: gate ? { header: 'PAYMENT-SIGNATURE', how: 'Sign one of the accepts[] below with your wallet and repeat the request.' } : null,
            },
            ...(reqs?.body ?? {}),
          },
          reqs?.headers ?? {},
        );
      }
    }
    if (parsedKey?.success) opts.idempotencyKey = parsedKey.data;
    const { task, replayed } = await d.engine.submitValidated(toolName, input, opts);
    const pollUrl = `/v1/tasks/${task.id}`;
    res.setHeader('Location', pollUrl);
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(202).json({
      task_id: task.id,
      poll_token: await d.pollTokens.issue(task.id),
      status: task.status,
      poll_url: pollUrl,
      price_usd: microsToUsd(task.priceMicros),
    });
  });

  r.get('/v1/tasks/:id', async (req: Request, res: Response) => {
    const id = String(req.params.id);
    const q = waitQuery.safeParse(req.query);
    if (!q.success) throw new InvalidInput(`wait: ${q.error.issues[0]?.message}`, 'wait');
    await authorizeRead(req, id);
    let task = await d.engine.get(id);
    if (!task) throw new NotFound(`No task ${id} (finished tasks are kept for a limited time).`, 'TASK_NOT_FOUND');
    if (q.data.wait && q.data.wait > 0) {
      const ac = new AbortController();
      res.on('close', () => ac.abort());
      task = (await d.engine.waitFor(id, q.data.wait * 1000, ac.signal)) ?? task;
    }
    res.json(toTaskView(task));
  });

  r.post('/v1/tasks/:id/cancel', async (req: Request, res: Response) => {
    const id = String(req.params.id);
    await authorizeRead(req, id);
    const task = await d.engine.cancel(id);
    if (!task) throw new NotFound(`No task ${id}.`, 'TASK_NOT_FOUND');
    // A pending task is cancelled at once (200). A running one stops when its worker notices: answer what
    // is true now, 202 with status "running" and cancel_requested, and let the caller poll for "cancelled".
    res.status(task.status === 'running' ? 202 : 200).json(toTaskView(task));
  });

  /** Poll token for this task, or the API key that created it, or another authorizer (SIWX). */
  async function authorizeRead(req: Request, id: string): Promise<void> {
    const credential = await readCredential(req, d.engine.store);
    if (credential.kind === 'poll-token') {
      await d.pollTokens.verifyFor(credential.token, id);
      return;
    }
    if (credential.kind === 'key') {
      applyRateLimit(d.keyLimiter, `key:${credential.key.id}`, req.res!);
      const task = await d.engine.get(id);
      if (!task) throw new NotFound(`No task ${id}.`, 'TASK_NOT_FOUND');
      if (task.payer.kind !== 'key' || task.payer.id !== credential.key.id) {
        throw new Forbidden('This task was created with another credential.', 'NOT_YOUR_TASK');
      }
      return;
    }
    if (d.readAuthorizers?.length) {
      const task = await d.engine.get(id);
      if (task) for (const authorize of d.readAuthorizers) if (await authorize(req, task)) return;
    }
    if (credential.kind === 'bearer') throw new Unauthorized('Unrecognised bearer token: use the poll token (pt_…) or the API key (sk_…).', 'INVALID_TOKEN');
    throw new Unauthorized('Send "Authorization: Bearer <poll_token>" (returned when the task was created).', 'MISSING_CREDENTIAL');
  }

  return r;
}

function headersOf(req: Request): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(req.headers)) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}
