// url.status's check: GET the URL through the guard, stop at the headers, follow redirects by hand (each
// hop guarded, at most MAX_REDIRECTS, loops detected), all within one time limit. Every way of not getting
// a response becomes status_code 0 with the exact reason; only the task being cancelled throws.
import { performance } from 'node:perf_hooks';
import { fetchHeaders } from './fetch-headers.js';
import { Deadline } from './deadline.js';
import { CheckTimeout, failureReason } from './failure-reason.js';
import type { ConnectionAttempt } from './guarded-connector.js';
import type { HttpClient } from './http-client.js';
import { failedTlsReport, type TlsReport } from './tls-report.js';
import { MAX_REDIRECTS } from './redirect-limit.js';

export { MAX_REDIRECTS };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const REQUEST_HEADERS = {
  'user-agent': 'Mozilla/5.0 (compatible; agent-utility url.status)',
  accept: '*/*',
  'accept-encoding': 'identity',
};

export interface UrlStatusInput {
  url: string;
  follow_redirects: boolean;
  timeout_ms: number;
}

export interface UrlStatusTimings {
  dns_ms: number | null;
  connect_ms: number | null;
  tls_ms: number | null;
  first_byte_ms: number | null;
}

export interface UrlStatusResult {
  url: string;
  final_url: string;
  status_code: number;
  status_text: string;
  reachable: boolean;
  headers: Record<string, string>;
  ssl: TlsReport | null;
  response_time_ms: number;
  checked_at: string;
  redirects: { url: string; status_code: number }[];
  timings: UrlStatusTimings;
}

export async function checkUrlStatus(http: HttpClient, input: UrlStatusInput, cancel: AbortSignal): Promise<UrlStatusResult> {
  const checkedAt = new Date().toISOString();
  const started = performance.now();
  const limit = new Deadline(input.timeout_ms, () => new CheckTimeout(input.timeout_ms), cancel);

  let attempt: ConnectionAttempt | null = null;
  const connect = http.createConnector({
    signal: limit,
    connectTimeoutMs: input.timeout_ms,
    onAttempt: (a) => (attempt = a),
  });
  const redirects: UrlStatusResult['redirects'] = [];
  const visited = new Set<string>();
  let current: URL | null = null;

  const finish = (fields: Pick<UrlStatusResult, 'status_code' | 'status_text' | 'headers'>, firstByteMs: number | null): UrlStatusResult => {
    const finalUrl = current ?? safeUrl(input.url);
    const a = attempt as ConnectionAttempt | null;
    return {
      url: input.url,
      final_url: finalUrl?.href ?? input.url,
      ...fields,
      reachable: fields.status_code >= 200 && fields.status_code < 300,
      ssl:
        finalUrl?.protocol === 'https:'
          ? (a?.tls ?? failedTlsReport(a?.phase === 'failed' && a.tlsMs === null && a.connectMs !== null ? tlsFailureCode(a.error) : null))
          : null,
      response_time_ms: Math.round(performance.now() - started),
      checked_at: checkedAt,
      redirects,
      timings: { dns_ms: a?.dnsMs ?? null, connect_ms: a?.connectMs ?? null, tls_ms: a?.tlsMs ?? null, first_byte_ms: firstByteMs },
    };
  };
  const failure = (err: unknown): UrlStatusResult => {
    if (cancel.aborted) throw cancel.reason;
    const where = current ?? safeUrl(input.url);
    const reason = where ? failureReason(err, attempt, where) : `"${input.url}" is not a valid URL`;
    return finish({ status_code: 0, status_text: reason, headers: {} }, null);
  };

  try {
    for (;;) {
      attempt = null;
      const hopStarted = performance.now();
      try {
        current = http.guard.checkUrl(current ?? input.url);
        visited.add(withoutHash(current));
        const response = await fetchHeaders(current, { connect, headers: REQUEST_HEADERS, signal: limit, headersTimeoutMs: input.timeout_ms });
        const a = attempt as ConnectionAttempt | null;
        const firstByteMs = round2(response.receivedAt - (a?.readyAt ?? hopStarted));
        const location = response.headers.location;
        if (!input.follow_redirects || !REDIRECT_STATUSES.has(response.statusCode) || !location) {
          return finish({ status_code: response.statusCode, status_text: response.statusText, headers: response.headers }, firstByteMs);
        }
        let next: URL;
        try {
          next = new URL(location, current);
        } catch {
          return finish(
            { status_code: 0, status_text: `Redirect from ${current.href} has an invalid Location: ${location}`, headers: response.headers },
            firstByteMs,
          );
        }
        redirects.push({ url: current.href, status_code: response.statusCode });
        if (visited.has(withoutHash(next))) {
          return finish(
            { status_code: 0, status_text: `Redirect loop: ${current.href} redirects back to ${next.href}`, headers: response.headers },
            firstByteMs,
          );
        }
        if (redirects.length > MAX_REDIRECTS) {
          return finish(
            { status_code: 0, status_text: `Too many redirects (more than ${MAX_REDIRECTS}); the last pointed to ${next.href}`, headers: response.headers },
            firstByteMs,
          );
        }
        current = next;
      } catch (err) {
        return failure(err);
      }
    }
  } finally {
    limit.dispose();
  }
}

// The fragment is never sent, so /a and /a#top are the same request.
function withoutHash(url: URL): string {
  return url.hash ? url.href.slice(0, -url.hash.length) : url.href;
}

function tlsFailureCode(err: Error | null): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function round2(ms: number): number {
  return Math.round(ms * 100) / 100;
}
