// The HTTP client the homeservices tools use to reach the lead service at LEADS_BASE_URL with LEADS_API_KEY.
// It does not go through the network guard on purpose: the guard protects against targets chosen by
// callers, while this address is set by the operator (and is usually loopback, which the guard refuses).
// Failures become ToolErrors: the lead service down or overloaded → transient (the task is retried and
// refunded); a rejected input → input; a refused key or a broken configuration → permanent.
import { ToolError } from '../errors.js';
import { defineService } from '../registry/services.js';
import type { SearchMeta, SearchResultEntry } from './types.js';

export interface LeadSearchResult {
  results: SearchResultEntry[];
  meta: SearchMeta;
}

export interface LeadRequestInput {
  pro_id: string;
  name: string;
  phone: string;
  email?: string | undefined;
  notes: string;
  service?: string;
  zip?: string;
  consent_text?: string;
}

export interface LeadRequestResult {
  request_id: string;
  status: string;
  message: string;
  pro_id: string;
  pro_name: string;
  duplicate: boolean;
}

/** What the lead service records as the requester's consent when an agent relays a request. */
export const AGENT_CONSENT_TEXT =
  "Relayed by an AI agent on the requester's behalf: the requester asked to be contacted by this professional about this job at the phone number (and e-mail address, if given) provided.";

interface ErrorBody {
  error?: unknown;
  code?: unknown;
  field?: unknown;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const t = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

export class LeadsClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async call(method: 'GET' | 'POST', path: string, opts: { body?: unknown; headers?: Record<string, string>; signal: AbortSignal }): Promise<unknown> {
    const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.baseUrl}${path}`, {
        method,
        headers,
        ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}),
        signal: opts.signal,
      });
    } catch (err) {
      if (opts.signal.aborted) throw opts.signal.reason;
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ToolError(
        `The lead service could not be reached (${cause?.code ?? cause?.message ?? (err as Error).message}); try again shortly.`,
        'transient',
      );
    }
    const text = await res.text();
    let data: unknown;
    try {
      data = text ? JSON.parse(text) : {};
    } catch {
      data = undefined;
    }
    if (res.ok) {
      if (data === undefined) throw new ToolError(`The lead service answered HTTP ${res.status} with a body that is not JSON.`, 'transient');
      return data;
    }
    const body = (data ?? {}) as ErrorBody;
    const detail = typeof body.error === 'string' ? body.error : `HTTP ${res.status}`;
    if (res.status >= 500 || res.status === 429 || res.status === 408) {
      throw new ToolError(`The lead service is unavailable right now: ${detail}`, 'transient');
    }
    if (res.status === 401 || res.status === 403) {
      throw new ToolError(`The lead service refused this server's API key (LEADS_API_KEY): ${detail}`, 'permanent');
    }
    if (res.status === 400 || res.status === 404 || res.status === 422) throw new ToolError(detail, 'input');
    throw new ToolError(`The lead service answered HTTP ${res.status}: ${detail}`, 'permanent');
  }

  /** Starts a search and polls it until it is complete. */
  async search(params: { service: string; zip: string; limit: number }, signal: AbortSignal): Promise<LeadSearchResult> {
    const created = (await this.call('POST', '/v1/searches', { body: params, signal })) as { search_id?: unknown };
    if (typeof created.search_id !== 'string') throw new ToolError('The lead service did not return a search id.', 'transient');
    const path = `/v1/searches/${encodeURIComponent(created.search_id)}`;
    let wait = 25;
    for (;;) {
      const s = (await this.call('GET', path, { signal })) as { status?: unknown; results?: unknown; meta?: unknown; error?: unknown };
      if (s.status === 'complete') return { results: (s.results ?? []) as SearchResultEntry[], meta: s.meta as SearchMeta };
      if (s.status === 'failed') throw new ToolError(`The lead service could not complete the search: ${String(s.error ?? 'unknown error')}`, 'transient');
      await sleep(wait, signal);
      wait = Math.min(1000, Math.round(wait * 1.6));
    }
  }

  /** Submits a request; the idempotency key makes a retry return the first request instead of sending another. */
  async submitRequest(input: LeadRequestInput, opts: { idempotencyKey: string; signal: AbortSignal }): Promise<LeadRequestResult> {
    return (await this.call('POST', '/v1/requests', {
      body: input,
      headers: { 'idempotency-key': opts.idempotencyKey },
      signal: opts.signal,
    })) as LeadRequestResult;
  }
}

/** The client for this configuration (LEADS_BASE_URL and LEADS_API_KEY; `serve` fills both when it runs the lead service itself). */
export const leadsClientService = defineService({
  name: 'leads-client',
  create: ({ config }) => {
    if (!config.leads.baseUrl) {
      throw new ToolError('The lead service is not configured: set LEADS_BASE_URL (agent-utility serve sets it when it runs the lead service).', 'permanent');
    }
    return new LeadsClient(config.leads.baseUrl, config.leads.apiKey);
  },
});
