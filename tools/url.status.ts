import { z } from 'zod';
import { defineTool } from '../src/registry/define-tool.js';
import { BlockedTargetError } from '../src/net/errors.js';
import { netGuardService } from '../src/net/guard.js';
import { MAX_REDIRECTS } from '../src/net/redirect-limit.js';
import { hostLimiterService } from '../src/net/host-limiter.js';
import { lazyModule } from '../src/registry/lazy-module.js';

// undici and the guarded connector: loaded with the first check, not when the tool is listed.
const httpModule = lazyModule(() => import('../src/net/http-client.js'));
const checkModule = lazyModule(() => import('../src/net/url-status-check.js'));

const ms = () => z.number().nonnegative().nullable();

const input = z.strictObject({
  url: z.url().describe('http(s) URL'),
  follow_redirects: z.boolean().default(true).describe(`Up to ${MAX_REDIRECTS}.`),
  timeout_ms: z.number().int().min(1).max(30_000).default(10_000).describe('For the whole check.'),
});

const output = z.object({
  url: z.string().describe('URL as requested'),
  final_url: z.string().describe('URL after redirects (where the check stopped)'),
  status_code: z.number().int().describe('HTTP status; 0 when unreachable, blocked or timed out'),
  status_text: z.string().describe('HTTP reason phrase, or the exact failure reason when status_code is 0'),
  reachable: z.boolean().describe('true when the final status is 2xx'),
  headers: z.record(z.string(), z.string()).describe('final response headers, lower-case names, repeats joined with ", "'),
  ssl: z
    .object({
      valid: z.boolean().describe('trusted chain, within dates, issued for the host'),
      error: z.string().nullable().describe('why not valid, e.g. CERT_HAS_EXPIRED'),
      issuer: z.string().nullable(),
      subject: z.string().nullable(),
      valid_from: z.string().nullable().meta({ format: 'date-time' }),
      valid_to: z.string().nullable().meta({ format: 'date-time' }),
      days_remaining: z.number().int().nullable().describe('days until valid_to, negative once expired'),
      protocol: z.string().nullable().describe('TLS version negotiated'),
    })
    .nullable()
    .describe('certificate of the final https URL; null for http'),
  response_time_ms: z.number().int().describe('whole check, all hops'),
  checked_at: z.string().meta({ format: 'date-time' }),
  redirects: z.array(z.object({ url: z.string(), status_code: z.number().int() })).describe('redirects followed, in order'),
  timings: z
    .object({
      dns_ms: ms(),
      connect_ms: ms(),
      tls_ms: ms(),
      first_byte_ms: ms().describe('connection ready to response headers'),
    })
    .describe('final hop, ms; null for phases that did not happen'),
});

export default defineTool({
  name: 'url.status',
  title: 'URL status',
  description:
    'Checks whether a URL answers (GET, headers only): status, headers, redirects, timings, TLS certificate. ' +
    'A failure (refused, DNS, timeout, TLS, a private address reached by name or redirect) gives status_code 0 and the reason ' +
    'in status_text; a private or reserved IP literal is refused (BLOCKED_TARGET).',
  input,
  output,
  price: '0.001',
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
  // The check bounds itself at timeout_ms (≤ 30 s); this is only the engine's backstop.
  timeoutMs: 35_000,
  concurrency: 64,
  example: { url: 'https://example.com/', follow_redirects: true, timeout_ms: 10_000 },
  async precheck(ctx, args) {
    const guard = await ctx.use(netGuardService);
    try {
      guard.checkUrl(args.url);
    } catch (err) {
      if (err instanceof BlockedTargetError) throw err.toForbidden('url');
      throw err;
    }
  },
  // Each host sees a few of our requests at a time (HOST_CONCURRENCY), however many links a batch holds.
  async run(ctx, args) {
    const [{ httpClientService }, { checkUrlStatus }] = await Promise.all([httpModule(), checkModule()]);
    const [http, limiter] = await Promise.all([ctx.use(httpClientService), ctx.use(hostLimiterService)]);
    return limiter.run(`http ${hostOf(args.url)}`, () => checkUrlStatus(http, args, ctx.signal), ctx.signal);
  },
});

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return url;
  }
}
