// The webhook options a caller sends with a task, crawl or batch creation (`webhook_url`, `webhook_events`),
// checked before anything is charged: a clear 400 naming the field, the same wording on every door.
import { InvalidInput } from '../errors.js';
import type { NetGuard } from '../net/guard.js';
import type { TaskWebhook } from '../store/task-row.js';

/** What a creation is: its events are named after it (task.completed, crawl.completed, batch.completed). */
export type WebhookTopic = 'task' | 'crawl' | 'batch';

/** Terminal status words a task's event can carry; a batch has one event, when all its items finished. */
const STATUS_WORDS: Record<WebhookTopic, readonly string[]> = {
  task: ['completed', 'failed', 'cancelled'],
  crawl: ['completed', 'failed', 'cancelled'],
  batch: ['completed'],
};

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** The tool whose tasks are crawls: their events are crawl.* (the same rows, named for what the caller created). */
export function topicOfTool(tool: string): WebhookTopic {
  return tool === 'site.crawl' ? 'crawl' : 'task';
}

export function eventNames(topic: WebhookTopic): string[] {
  return STATUS_WORDS[topic].map((w) => `${topic}.${w}`);
}

/**
 * The webhook of a creation, or null when none was asked for. `webhook_events` without `webhook_url` is
 * refused (it would silently do nothing). The URL must be http(s) and must not name a private address
 * literally; a name that resolves to one is refused at delivery (the guard checks every connection).
 */
export function parseWebhookOptions(raw: { webhook_url?: unknown; webhook_events?: unknown }, topic: WebhookTopic, guard: NetGuard): TaskWebhook | null {
  const { webhook_url: url, webhook_events: events } = raw;
  if (url === undefined || url === null) {
    if (events !== undefined && events !== null)
      throw new InvalidInput('webhook_events needs webhook_url: name the URL the events are sent to.', 'webhook_events');
    return null;
  }
  if (typeof url !== 'string' || url.length === 0) throw new InvalidInput('webhook_url must be an http or https URL (a string).', 'webhook_url');
  if (url.length > MAX_WEBHOOK_URL_LENGTH) throw new InvalidInput(`webhook_url is longer than ${MAX_WEBHOOK_URL_LENGTH} characters.`, 'webhook_url');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInput('webhook_url is not a valid URL.', 'webhook_url');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new InvalidInput('webhook_url must be an http or https URL.', 'webhook_url');
  if (parsed.username || parsed.password)
    throw new InvalidInput('webhook_url must not carry a user name or password; requests are signed instead.', 'webhook_url');
  try {
    guard.checkUrl(parsed);
  } catch {
    throw new InvalidInput('webhook_url points to a private or reserved address; webhooks are only sent to public addresses.', 'webhook_url');
  }
  return { url: parsed.href, events: parseEvents(events, topic) };
}

/** Accepts a list (or a comma-separated string, as a query parameter brings it); answers status words. */
function parseEvents(events: unknown, topic: WebhookTopic): string | null {
  if (events === undefined || events === null) return null;
  const list = typeof events === 'string' ? events.split(',').map((e) => e.trim()) : events;
  const known = eventNames(topic);
  const wording = `webhook_events must be a non-empty list of: ${known.join(', ')}.`;
  if (!Array.isArray(list) || list.length === 0 || list.length > known.length * 2) throw new InvalidInput(wording, 'webhook_events');
  const words = new Set<string>();
  for (const e of list) {
    if (typeof e !== 'string' || !known.includes(e)) throw new InvalidInput(wording, 'webhook_events');
    words.add(e.slice(topic.length + 1));
  }
  return words.size === STATUS_WORDS[topic].length ? null : [...words].join(' ');
}

/**
 * Splits a creation body into the tool's input and the webhook options beside it: `webhook_url` and
 * `webhook_events` are the service's fields, never a tool's, so they are taken out before the tool's
 * strict schema sees the input.
 */
export function takeWebhookOptions(body: unknown): { input: unknown; options: { webhook_url?: unknown; webhook_events?: unknown } } {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { input: body, options: {} };
  const record = body as Record<string, unknown>;
  if (!Object.hasOwn(record, 'webhook_url') && !Object.hasOwn(record, 'webhook_events')) return { input: body, options: {} };
  const { webhook_url, webhook_events, ...input } = record;
  return { input, options: { webhook_url, webhook_events } };
}

/** A webhook is signed with the creating key's secret: a creation paid another way cannot have one. */
export function needsApiKey(): InvalidInput {
  return new InvalidInput("webhook_url needs an API key: webhooks are signed with the key's secret (GET /v1/webhooks/secret).", 'webhook_url');
}
