// POST /v1/requests (a service request and its notifications, idempotent with Idempotency-Key) and
// GET /v1/requests/{id} (delivery tracking).
import { Router } from 'express';
import { requireJson } from '../../web/errors.js';
import { NotFound } from '../../errors.js';
import { parseIdempotencyKey } from '../../idempotency.js';
import { requestBody, requestMessage, type LeadRequests, type RequestOutcome } from '../requests.js';
import type { LeadStore } from '../store.js';
import type { DeliveryRecord } from '../types.js';
import { clientIp, parseBody, type Callers } from './caller.js';

function deliveryView(d: DeliveryRecord): Record<string, unknown> {
  return {
    channel: d.channel,
    status: d.status,
    attempts: d.attempts,
    last_error: d.lastError,
    delivered_at: d.deliveredAt === null ? null : new Date(d.deliveredAt).toISOString(),
    next_attempt_at: d.status === 'pending' ? new Date(d.nextAttemptAt).toISOString() : null,
  };
}

/** One word for all channels: delivered (all), failed (all), partially_delivered, pending, skipped, none. */
export function overallDelivery(ds: readonly DeliveryRecord[]): string {
  if (ds.length === 0) return 'none';
  const s = ds.map((d) => d.status);
  if (s.every((x) => x === 'skipped')) return 'skipped';
  if (s.some((x) => x === 'pending' || x === 'sending')) return 'pending';
  if (s.every((x) => x === 'delivered' || x === 'skipped')) return 'delivered';
  if (s.some((x) => x === 'delivered')) return 'partially_delivered';
  return 'failed';
}

function requestResponse(o: RequestOutcome): Record<string, unknown> {
  return {
    request_id: o.request.id,
    status: 'submitted',
    message: requestMessage(o),
    pro_id: o.request.proId,
    pro_name: o.request.proName,
    service: o.request.category,
    duplicate: !o.created && !o.replayed,
  };
}

export interface RequestRoutesDeps {
  store: LeadStore;
  callers: Callers;
  requests: LeadRequests;
  /** Called after a request and its outbox rows are committed (wakes the delivery dispatcher). */
  onRequestCreated?: (() => void) | undefined;
}

export function requestRoutes(d: RequestRoutesDeps): Router {
  const r = Router();
  r.post('/v1/requests', requireJson, async (req, res) => {
    const principal = await d.callers.principal(req, res, 'requests');
    const body = parseBody(requestBody, req.body);
    const idempotencyKey = parseIdempotencyKey(req.get('idempotency-key'));
    const outcome = await d.requests.submit(principal, body, { idempotencyKey, ip: clientIp(req) });
    if (outcome.created) d.onRequestCreated?.();
    await d.callers.refreshQuotaHeaders(res, principal, 'requests');
    if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res
      .status(outcome.created ? 201 : 200)
      .location(`/v1/requests/${outcome.request.id}`)
      .json(requestResponse(outcome));
  });

  r.get('/v1/requests/:id', async (req, res) => {
    const principal = await d.callers.principal(req, res, 'requests');
    const id = String(req.params.id);
    const request = await d.store.getRequest(id);
    if (!request || (!principal.unlimited && !(await d.store.canAccessRequest(id, principal.accountId)))) {
      throw new NotFound(`No request "${id.slice(0, 64)}" for this key.`, 'UNKNOWN_REQUEST');
    }
    const deliveries = await d.store.listDeliveries(id);
    // Requester details are deliberately left out: this view is for tracking delivery, not for reading leads.
    res.json({
      request_id: request.id,
      status: 'submitted',
      pro_id: request.proId,
      pro_name: request.proName,
      service: request.category,
      zip: request.zip,
      is_demo: request.isDemo,
      created_at: new Date(request.createdAt).toISOString(),
      consent_given_at: request.consent.given_at,
      delivery_status: overallDelivery(deliveries),
      deliveries: deliveries.map(deliveryView),
    });
  });
  return r;
}
