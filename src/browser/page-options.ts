// The page controls every browser tool takes besides url/html and wait: what to wait for, how long the
// page may take, what the browser sends (headers, cookies, user agent), which device it pretends to be,
// which resource types it skips, whether scripts run, and how long a result may be reused. All optional:
// without them a task renders exactly as before.
import type { BrowserContextOptions } from 'playwright-core';
import { z } from 'zod';
import { actionsRefine, pageActionsShape, type PageActionOptions } from './actions/schema.js';
import { cssSelectorInput } from './input-schemas.js';
import { playwright } from './playwright.js';

export const MAX_DELAY_MS = 10_000;
export const MAX_CACHE_TTL_S = 3600;
export const BLOCKABLE = ['image', 'media', 'font', 'stylesheet'] as const;
export type BlockableType = (typeof BLOCKABLE)[number];

// Connection-level headers belong to Chromium and the proxy; Host would let a caller aim a request at a
// name the guard never checked. Proxy-* headers would reach the guarded proxy itself.
const FORBIDDEN_HEADERS = new Set(['host', 'connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length', 'expect']);
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const COOKIE_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a header name cannot be sent, or undefined when it can. */
export function headerProblem(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (!TOKEN.test(name)) return 'is not a valid header name';
  if (FORBIDDEN_HEADERS.has(lower)) return 'is set by the browser and cannot be overridden';
  if (lower.startsWith('proxy-')) return 'is a proxy header and cannot be sent';
  return undefined;
}

/** The device names Playwright knows (loaded on first use: playwright-core is large). */
export function deviceNames(): string[] {
  return Object.keys(playwright().devices);
}

const cookieInput = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(256)
      .refine((n) => COOKIE_NAME.test(n), { message: 'must be a cookie name token (no spaces, =, ; or quotes)' }),
    value: z
      .string()
      .max(4096)
      .refine((v) => !/[;\r\n\0]/.test(v), { message: 'must not contain ;, line breaks or NUL' }),
    domain: z.string().min(1).max(253).optional(),
    url: z
      .url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' })
      .max(2048)
      .optional(),
    // A pattern, not startsWith: zod publishes that as a non-standard format strict validators refuse.
    path: z.string().regex(/^\//, 'must start with /').max(1024).optional(),
    secure: z.boolean().optional(),
    http_only: z.boolean().optional(),
  })
  .refine((c) => !(c.domain !== undefined && c.url !== undefined), { message: 'give domain or url, not both', path: ['url'] })
  .refine((c) => !(c.url !== undefined && c.path !== undefined), { message: 'comes from url when url is given', path: ['path'] });

/** Spread into each browser tool's input object. */
export const pageOptionsShape = {
  wait_for: cssSelectorInput.optional().describe('CSS selector.'),
  // No descriptions where the name and schema say it (delay_ms, timeout_ms, cache_ttl_s, user_agent…): tools/list
  // repeats each browser tool's options, so a word here is paid seven times on every turn.
  delay_ms: z.number().int().min(0).max(MAX_DELAY_MS).default(0),
  timeout_ms: z.number().int().min(1000).max(90_000).optional(),
  headers: z
    .record(z.string().min(1).max(256), z.string().max(8192))
    .superRefine((headers, ctx) => {
      const names = Object.keys(headers);
      if (names.length > 50) ctx.addIssue({ code: 'custom', message: 'takes at most 50 headers' });
      for (const name of names) {
        const problem = headerProblem(name);
        if (problem) ctx.addIssue({ code: 'custom', path: [name], message: problem });
        else if (/[\r\n\0]/.test(headers[name]!)) ctx.addIssue({ code: 'custom', path: [name], message: 'must not contain line breaks or NUL' });
      }
    })
    // No description: the server names a header it refuses (Host, hop-by-hop, Proxy-*) in its 400.
    .optional(),
  // No description: `required` shows domain and url are optional (the page's own host by default).
  cookies: z.array(cookieInput).max(50).optional(),
  user_agent: z
    .string()
    .min(1)
    .max(512)
    .refine((ua) => !/[\r\n\0]/.test(ua), { message: 'must not contain line breaks or NUL' })
    .optional(),
  device: z
    .string()
    .min(1)
    .max(64)
    .superRefine((name, ctx) => {
      if (!deviceNames().includes(name))
        ctx.addIssue({ code: 'custom', message: `"${name.slice(0, 64)}" is not a Playwright device name (e.g. "iPhone 13", "Pixel 7", "iPad Mini")` });
    })
    .optional()
    .describe('e.g. "iPhone 13" (Playwright).'),
  device_scale_factor: z.number().min(1).max(4).optional(),
  mobile: z.boolean().optional(),
  block: z.array(z.enum(BLOCKABLE)).max(4).optional(),
  javascript: z.boolean().default(true),
  cache_ttl_s: z.number().int().min(0).max(MAX_CACHE_TTL_S).default(0),
  ...pageActionsShape,
};

/** Said once in each browser tool's description; every page option documents itself in its schema. */
export const PAGE_OPTIONS_REF = 'Public addresses only.';

export interface PageOptions extends PageActionOptions {
  url?: string | undefined;
  wait_for?: string | undefined;
  delay_ms: number;
  timeout_ms?: number | undefined;
  headers?: Record<string, string> | undefined;
  cookies?: z.output<typeof cookieInput>[] | undefined;
  user_agent?: string | undefined;
  device?: string | undefined;
  device_scale_factor?: number | undefined;
  mobile?: boolean | undefined;
  block?: BlockableType[] | undefined;
  javascript: boolean;
  cache_ttl_s: number;
}

/** Cross-field rules; add with .superRefine() on each browser tool's input object. */
export function pageOptionsRefine(v: PageOptions, ctx: z.RefinementCtx): void {
  actionsRefine(v, ctx);
  if (v.device !== undefined) {
    for (const field of ['device_scale_factor', 'mobile'] as const) {
      if (v[field] !== undefined) ctx.addIssue({ code: 'custom', path: [field], message: 'cannot be combined with device (the device sets it)' });
    }
  }
  if (v.url === undefined) {
    v.cookies?.forEach((c, i) => {
      if (c.domain === undefined && c.url === undefined)
        ctx.addIssue({ code: 'custom', path: ['cookies', i, 'domain'], message: 'is required with html input (give domain or url)' });
    });
    if (v.headers && Object.keys(v.headers).length > 0)
      ctx.addIssue({ code: 'custom', path: ['headers'], message: "needs url input: headers go only to the page's own origin, and html input has none" });
    return;
  }
  // Cookies stay with the page's own host: a cookie for another host would ride along on the page's
  // third-party requests (and a caller's credentials with them).
  const host = hostOf(v.url);
  if (host === undefined) return;
  v.cookies?.forEach((c, i) => {
    const field = c.url !== undefined ? 'url' : c.domain !== undefined ? 'domain' : undefined;
    if (!field) return;
    const given = field === 'url' ? hostOf(c.url!) : c.domain!.replace(/^\./, '').toLowerCase();
    if (given !== host)
      ctx.addIssue({ code: 'custom', path: ['cookies', i, field], message: `must be the page's own host (${host}): cookies go only to the page's site` });
  });
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** The origin caller headers go to: the page URL's scheme, host and port (redirects elsewhere get none). */
export function headerOrigin(v: Pick<PageOptions, 'url'>): string | undefined {
  if (v.url === undefined) return undefined;
  try {
    return new URL(v.url).origin;
  } catch {
    return undefined;
  }
}

/**
 * Context options this task needs beyond the pool's defaults, or undefined when a standard context will
 * do. Anything set here, or any header, cookie or block list, gets the task a context of its own, so none
 * of it can reach another task.
 */
export function contextOptionsFor(v: PageOptions, viewport: { width: number; height: number } | undefined): BrowserContextOptions | undefined {
  const opts: BrowserContextOptions = {};
  if (v.device !== undefined) {
    const { defaultBrowserType: _ignored, ...descriptor } = playwright().devices[v.device]!;
    Object.assign(opts, descriptor);
  } else if (v.device_scale_factor !== undefined || v.mobile !== undefined) {
    opts.deviceScaleFactor = v.device_scale_factor ?? 1;
    opts.isMobile = v.mobile ?? false;
    opts.hasTouch = v.mobile ?? false;
    if (viewport) opts.viewport = viewport;
  }
  if (v.user_agent !== undefined) opts.userAgent = v.user_agent;
  if (!v.javascript) opts.javaScriptEnabled = false;
  // Caller headers are not context-wide (extraHTTPHeaders would send them to every origin the page
  // touches): the task's own context adds them to requests for the page's origin only (callerHeaderRoute).
  const hasHeaders = v.headers !== undefined && Object.keys(v.headers).length > 0;
  const needsOwn = Object.keys(opts).length > 0 || hasHeaders || (v.cookies?.length ?? 0) > 0 || (v.block?.length ?? 0) > 0;
  return needsOwn ? opts : undefined;
}

/** Playwright's cookie shape for each requested cookie (those without domain or url apply to the page url). */
export function playwrightCookies(
  v: PageOptions,
): { name: string; value: string; url?: string; domain?: string; path?: string; secure?: boolean; httpOnly?: boolean }[] {
  const origin = headerOrigin(v);
  return (v.cookies ?? []).map((c) => {
    // With url input every cookie is the page host's own (the input check refuses other hosts), set by
    // url so it is host-only: a domain cookie would also go to every subdomain. Html input names its own.
    const where =
      c.url !== undefined ? { url: c.url } : origin !== undefined ? { url: `${origin}${c.path ?? '/'}` } : { domain: c.domain!, path: c.path ?? '/' };
    return {
      name: c.name,
      value: c.value,
      ...where,
      ...(c.secure !== undefined ? { secure: c.secure } : {}),
      ...(c.http_only !== undefined ? { httpOnly: c.http_only } : {}),
    };
  });
}

/** Every browser tool's output: set on a result reused from the cache. */
export const cachedShape = {
  cached: z.boolean().optional().describe('true when the result was reused from an identical earlier request (cache_ttl_s); absent otherwise.'),
};

/** The text tools' output: where the main document ended up and how it answered. */
export const documentShape = {
  final_url: z.string().describe('URL of the main document after redirects.'),
  status_code: z.number().int().nullable().describe('HTTP status of the main document (null if none was received).'),
};
