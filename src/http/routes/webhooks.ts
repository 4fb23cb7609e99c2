// REST for webhooks (docs/webhooks.md): the calling key's signing secret (GET /v1/webhooks/secret), its
// rotation (POST /v1/webhooks/secret/rotate), and the delivery log of a task or batch the key created
// (GET /v1/tasks/{id}/webhooks, GET /v1/batches/{id}/webhooks). API key only: the secret and the log
// belong to the key, and another key is answered 403 as for the task itself.
import { Router, type Request, type Response } from 'express';
import type { Engine } from '../../engine/engine.js';
import { Forbidden, NotFound, ServiceUnavailable, Unauthorized } from '../../errors.js';
import type { DeliveryLogEntry } from '../../db/webhooks/webhook-store.js';
import { readCredential } from '../../web/credential.js';
import { applyRateLimit, type Limiter } from '../../web/rate-limit.js';
import type { Webhooks } from '../../webhooks/service.js';

export interface WebhookRoutesDeps {
  engine: Engine;
  webhooks: Webhooks | undefined;
  keyLimiter: Limiter;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function toView(e: DeliveryLogEntry) {
  return {
    webhook_id: e.id,
    type: `${e.subjectKind === 'batch' ? 'batch' : 'task'}.${e.event}`,
    url: e.url,
    status: e.status,
    attempts: e.attempts,
    next_attempt_at: iso(e.nextAttemptAt),
    delivered_at: iso(e.deliveredAt),
    last_error: e.lastError,
    created_at: iso(e.createdAt),
    log: e.log.map((a) => ({
      attempt: a.attempt,
      started_at: iso(a.startedAt),
      duration_ms: a.durationMs,
      http_status: a.httpStatus,
      error: a.error ?? (a.durationMs === null ? 'no outcome recorded (in progress, or its sender stopped mid-request)' : null),
    })),
  };
}

export function webhookRoutes(d: WebhookRoutesDeps): Router {
  const r = Router();

  async function keyOf(req: Request, res: Response): Promise<string> {
    const credential = await readCredential(req, d.engine.store);
    if (credential.kind !== 'key')
      throw new Unauthorized(
        'Send the API key as "Authorization: Bearer sk_…": webhook secrets and delivery logs belong to a key.',
        credential.kind === 'none' ? 'MISSING_CREDENTIAL' : 'WRONG_CREDENTIAL',
      );
    await applyRateLimit(d.keyLimiter, `key:${credential.key.id}`, res);
    return credential.key.id;
  }

  function service(): Webhooks {
    if (!d.webhooks) throw new ServiceUnavailable('Webhooks are not available on this store.', 'WEBHOOKS_UNAVAILABLE');
    return d.webhooks;
  }

  r.get('/v1/webhooks/secret', async (req: Request, res: Response) => {
    const keyId = await keyOf(req, res);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await service().secret(keyId));
  });

  r.post('/v1/webhooks/secret/rotate', async (req: Request, res: Response) => {
    const keyId = await keyOf(req, res);
    res.setHeader('Cache-Control', 'no-store');
    res.json(await service().rotate(keyId));
  });

  r.get('/v1/tasks/:id/webhooks', async (req: Request, res: Response) => {
    const keyId = await keyOf(req, res);
    const id = String(req.params.id);
    const task = await d.engine.get(id);
    if (!task) throw new NotFound(`No task ${id}.`, 'TASK_NOT_FOUND');
    if (task.payer.kind !== 'key' || task.payer.id !== keyId) throw new Forbidden('This task was created with another credential.', 'NOT_YOUR_TASK');
    res.json({ task_id: id, deliveries: (await service().deliveries(id, keyId)).map(toView) });
  });

  r.get('/v1/batches/:id/webhooks', async (req: Request, res: Response) => {
    const keyId = await keyOf(req, res);
    const id = String(req.params.id);
    const batch = await d.engine.store.getBatch(id);
    if (!batch) throw new NotFound(`No batch ${id}.`, 'BATCH_NOT_FOUND');
    if (batch.payer.kind !== 'key' || batch.payer.id !== keyId) throw new Forbidden('This batch was created with another credential.', 'NOT_YOUR_BATCH');
    res.json({ batch_id: id, deliveries: (await service().deliveries(id, keyId)).map(toView) });
  });

  return r;
}
