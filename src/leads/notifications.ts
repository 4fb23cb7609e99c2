// What a professional receives about a request: the e-mail text and the webhook event, built once when
// the request is created and stored in the outbox with it (so a retry sends exactly the same message).
import { CATEGORY_LABELS } from './categories.js';
import { randomId } from './ids.js';
import type { DeliveryRecord, Pro, RequestRecord } from './types.js';

export const WEBHOOK_EVENT = 'request.created';

export interface RetryPolicy {
  emailMaxAttempts: number;
  webhookMaxAttempts: number;
}

export function requestEmail(r: RequestRecord): { subject: string; text: string } {
  const label = CATEGORY_LABELS[r.category];
  const lines = [
    `Hello ${r.proName},`,
    '',
    `${r.name} asked to be contacted about: ${label}${r.zip ? ` (ZIP ${r.zip})` : ''}.`,
    '',
    `Phone: ${r.phone}`,
    ...(r.email ? [`E-mail: ${r.email}`] : []),
    '',
    'Job description:',
    r.notes,
    '',
    `Consent recorded: "${r.consent.text}" (${r.consent.given_at})`,
    `Request id: ${r.id}`,
    '',
    'Please contact the requester directly. If this request reached you by mistake, ignore it; no one else is told.',
  ];
  return { subject: `New ${label.toLowerCase()} request from ${r.name}`, text: lines.join('\n') };
}

export function requestWebhookEvent(r: RequestRecord, deliveryId: string): Record<string, unknown> {
  return {
    type: WEBHOOK_EVENT,
    id: deliveryId,
    created_at: new Date(r.createdAt).toISOString(),
    data: {
      request_id: r.id,
      pro_id: r.proId,
      pro_name: r.proName,
      service: r.category,
      zip: r.zip,
      requester: { name: r.name, phone: r.phone, email: r.email },
      notes: r.notes,
      consent: { text: r.consent.text, given_at: r.consent.given_at },
    },
  };
}

/**
 * The outbox rows for one request: an e-mail when the pro has an address, a webhook when it has a URL.
 * Demo professionals are fictional, so their channels are recorded as skipped and nothing is sent.
 */
export function deliveriesFor(r: RequestRecord, pro: Pro, policy: RetryPolicy): DeliveryRecord[] {
  const base = (channel: DeliveryRecord['channel']) => {
    const id = randomId('dlv');
    return {
      id,
      requestId: r.id,
      channel,
      status: pro.isDemo ? ('skipped' as const) : ('pending' as const),
      attempts: 0,
      maxAttempts: channel === 'email' ? policy.emailMaxAttempts : policy.webhookMaxAttempts,
      nextAttemptAt: r.createdAt,
      lastError: pro.isDemo ? 'demo listing: there is no real business to notify' : null,
      deliveredAt: null,
      createdAt: r.createdAt,
      updatedAt: r.createdAt,
    };
  };
  const out: DeliveryRecord[] = [];
  if (pro.email) {
    out.push({ ...base('email'), target: { address: pro.email }, payload: requestEmail(r) });
  }
  if (pro.webhookUrl && pro.webhookSecret) {
    const b = base('webhook');
    out.push({ ...b, target: { address: pro.webhookUrl, secret: pro.webhookSecret }, payload: requestWebhookEvent(r, b.id) });
  }
  return out;
}
