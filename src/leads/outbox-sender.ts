// How a lead notification leaves: the lead service hands this sender to the service's one outbox
// dispatcher (src/webhooks/dispatcher.ts), which claims the row, counts the attempt, retries and records
// the outcome. The message itself was fixed when the request was written (notifications.ts): an e-mail to
// the pro, or a webhook signed with the pro's own secret (X-Leads-Signature, as the lead service always
// signed them: receivers need not change).
import type { OutboxMessage } from '../db/webhooks/webhook-store.js';
import type { FixedMessageSender } from '../webhooks/dispatcher.js';
import { PermanentDeliveryError, type WebhookPoster } from '../webhooks/post.js';
import type { Mailer } from './mailer.js';
import { WEBHOOK_EVENT } from './notifications.js';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, signWebhook } from './webhook-signature.js';

export interface LeadSenderOptions {
  mailer: Mailer;
  postWebhook: WebhookPoster;
  webhookTimeoutMs: number;
}

export function leadNotificationSender(o: LeadSenderOptions): FixedMessageSender {
  return async (m, now) => {
    const payload = m.payload ?? {};
    if (m.channel === 'email') {
      await o.mailer.send({ to: m.url, subject: String(payload.subject ?? ''), text: String(payload.text ?? '') });
      return { httpStatus: null };
    }
    return { httpStatus: await sendWebhook(o, m, payload, now) };
  };
}

async function sendWebhook(o: LeadSenderOptions, m: OutboxMessage, payload: Record<string, unknown>, now: number): Promise<number> {
  if (!m.signingSecret) throw new PermanentDeliveryError('webhook has no signing secret');
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(now / 1000);
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'agent-utility-leads/1',
    'x-leads-event': String(payload.type ?? WEBHOOK_EVENT),
    'x-leads-delivery': m.id,
    [TIMESTAMP_HEADER.toLowerCase()]: String(timestamp),
    [SIGNATURE_HEADER.toLowerCase()]: signWebhook(m.signingSecret, timestamp, body),
  };
  return (await o.postWebhook(m.url, { headers, body, signal: AbortSignal.timeout(o.webhookTimeoutMs) })).status;
}
