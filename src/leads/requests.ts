// Service requests: validation, idempotency, deduplication, quota, and the request + outbox write.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { InvalidInput, Unprocessable } from '../errors.js';
import { requestHash } from '../idempotency.js';
import { CATEGORY_LABELS, categoriesMentioned, resolveCategory, type Category } from './categories.js';
import { requireZip } from './geo.js';
import { randomId } from './ids.js';
import { deliveriesFor, type RetryPolicy } from './notifications.js';
import { requireE164 } from './phone.js';
import type { Principal } from './auth.js';
import type { LeadStore } from './store.js';
import type { DeliveryRecord, Pro, RequestRecord } from './types.js';
import { utcDay } from './quota.js';

export const DEDUP_WINDOW_MS = 24 * 3_600_000;

/**
 * Required: pro_id, name, phone, notes. Optional: service (defaults to what the notes mention among the
 * pro's services, else the pro's first service), zip (the requester's), email, consent_text.
 */
export const requestBody = z.object({
  pro_id: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(200),
  phone: z.string().trim().min(3).max(40),
  notes: z.string().trim().min(1).max(5000),
  service: z.string().trim().min(1).max(100).optional(),
  zip: z.string().trim().optional(),
  email: z.email().max(254).optional(),
  consent_text: z.string().trim().min(1).max(1000).optional(),
});
export type RequestBody = z.output<typeof requestBody>;

export function defaultConsentText(proName: string, label: string, hasEmail: boolean): string {
  return `I agree to be contacted by ${proName} about ${label.toLowerCase()} at the phone number${hasEmail ? ' and e-mail address' : ''} I gave.`;
}

export interface RequestOutcome {
  request: RequestRecord;
  /** false: an earlier request (dedup or idempotent replay) is returned and nobody was notified again. */
  created: boolean;
  replayed: boolean;
  deliveries: DeliveryRecord[];
}

export type QuotaGate = (principal: Principal, category: Category) => Promise<void>;

export interface RequestDeps {
  store: LeadStore;
  retry: RetryPolicy;
  now: () => number;
  consumeQuota: QuotaGate;
}

function pickCategory(body: RequestBody, pro: Pro): Category {
  if (body.service !== undefined) {
    const category = resolveCategory(body.service);
    if (!pro.services.includes(category)) {
      throw new InvalidInput(`service: ${pro.name} does not offer ${category}; it offers ${pro.services.join(', ')}.`, 'service', 'SERVICE_NOT_OFFERED');
    }
    return category;
  }
  const mentioned = categoriesMentioned(body.notes).find((c) => pro.services.includes(c));
  const category = mentioned ?? pro.services[0];
  if (!category) throw new InvalidInput('service: this professional lists no services.', 'service');
  return category;
}

/** The request's hash for idempotency, as the task service computes it for a task's input. */
export function bodyHash(body: RequestBody): string {
  return requestHash('leads:request', body);
}

/** How releases up to 1d6b9d1 hashed a body: records they wrote keep matching a replay of that body. */
function legacyBodyHash(body: RequestBody): string {
  const canonical = JSON.stringify(
    Object.keys(body)
      .sort()
      .map((k) => [k, body[k as keyof RequestBody]]),
  );
  return createHash('sha256').update(canonical).digest('hex');
}

export class LeadRequests {
  constructor(private readonly d: RequestDeps) {}

  async submit(principal: Principal, body: RequestBody, opts: { idempotencyKey?: string | undefined; ip: string | null }): Promise<RequestOutcome> {
    const hash = bodyHash(body);
    if (opts.idempotencyKey !== undefined) {
      const seen = await this.d.store.findIdempotency(principal.accountId, opts.idempotencyKey);
      if (seen) {
        if (seen.bodyHash !== hash && seen.bodyHash !== legacyBodyHash(body)) {
          throw new Unprocessable('This Idempotency-Key was already used with a different request body.', 'IDEMPOTENCY_KEY_REUSED', 'Idempotency-Key');
        }
        const request = await this.d.store.getRequest(seen.requestId);
        if (request) return { request, created: false, replayed: true, deliveries: await this.d.store.listDeliveries(request.id) };
      }
    }

    const pro = await this.d.store.getPro(body.pro_id);
    if (!pro) {
      throw new InvalidInput(`pro_id: no professional "${body.pro_id.slice(0, 64)}"; use an id from a search result.`, 'pro_id', 'UNKNOWN_PRO');
    }
    const phone = requireE164(body.phone);
    const category = pickCategory(body, pro);
    const zip = body.zip !== undefined ? requireZip(body.zip).zip : null;
    const email = body.email?.toLowerCase() ?? null;

    const now = this.d.now();
    await this.d.consumeQuota(principal, category);
    const request: RequestRecord = {
      id: randomId('req'),
      accountId: principal.accountId,
      proId: pro.id,
      proName: pro.name,
      category,
      zip,
      name: body.name,
      phone,
      email,
      notes: body.notes,
      consent: {
        text: body.consent_text ?? defaultConsentText(pro.name, CATEGORY_LABELS[category], email !== null),
        given_at: new Date(now).toISOString(),
        submitted_by: principal.accountId,
        ip: opts.ip,
      },
      isDemo: pro.isDemo,
      createdAt: now,
    };
    const deliveries = deliveriesFor(request, pro, this.d.retry);
    const result = await this.d.store.createRequest({
      request,
      deliveries,
      dedupSince: now - DEDUP_WINDOW_MS,
      ...(opts.idempotencyKey !== undefined ? { idempotency: { key: opts.idempotencyKey, bodyHash: hash } } : {}),
    });
    if (!result.created && !principal.unlimited) {
      // A duplicate notifies nobody, so it does not count against the day's requests.
      await this.d.store.refundQuota(principal.accountId, utcDay(now), 'requests');
    }
    return {
      request: result.request,
      created: result.created,
      replayed: false,
      deliveries: result.created ? deliveries : await this.d.store.listDeliveries(result.request.id),
    };
  }
}

/** The confirmation sentence for a request response. */
export function requestMessage(o: RequestOutcome): string {
  const r = o.request;
  if (r.isDemo) {
    return `Request ${r.id} was recorded for ${r.proName}. This is a demo listing, so no real business was contacted.`;
  }
  if (!o.created && !o.replayed) {
    return `This request was already sent to ${r.proName} within the last 24 hours (same phone, professional and service); they were not notified again.`;
  }
  const channels = o.deliveries.map((d) => (d.channel === 'email' ? 'e-mail' : 'webhook'));
  return `Request sent to ${r.proName}${channels.length ? ` (notified by ${channels.join(' and ')})` : ''}; they will contact ${r.name} directly.`;
}
