// The lead service's HTTP front door (its own Express app and port). Routes only translate between HTTP
// and the searches / requests / registration modules; errors use the shared {error, code, field, retry} body.
import express, { type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { AppError, Forbidden, InvalidInput, NotFound, PayloadTooLarge, RateLimited, UnsupportedMediaType } from '../errors.js';
import type { TrustProxy } from '../config.js';
import type { Logger } from '../logger.js';
import { parseOrInvalid } from '../registry/input-errors.js';
import { KeyAuthenticator, newApiKey, type Principal } from './auth.js';
import { CATEGORY_LABELS, CATEGORY_SLUGS, CATEGORY_SYNONYMS, type Category } from './categories.js';
import type { Mailer } from './mailer.js';
import type { RetryPolicy } from './notifications.js';
import { FREE_TIER, limitFor, secondsUntilUtcMidnight, setIpLimitHeaders, setQuotaHeaders, utcDay } from './quota.js';
import { DEFAULT_REGISTRATION_LIMITS, REGISTER_MESSAGE, Registration, type RegistrationLimits } from './registration.js';
import { LeadRequests, requestBody, requestMessage, type RequestOutcome } from './requests.js';
import { LeadSearches, searchBody } from './searches.js';
import type { LeadStore } from './store.js';
import type { DeliveryRecord, QuotaKind, QuotaLimits, SearchRecord } from './types.js';

export interface LeadsAppDeps {
  store: LeadStore;
  mailer: Mailer;
  log: Logger;
  /** Absolute base URL of this service (verification links in mails). */
  publicUrl: () => string;
  /** Keys with no quota that may read everything (LEADS_API_KEY and the internal key for the tools). */
  operatorKeys: readonly string[];
  limits?: QuotaLimits;
  registrationLimits?: RegistrationLimits;
  retry?: RetryPolicy;
  now?: () => number;
  /** Called after a request and its outbox rows are committed (wakes the delivery dispatcher). */
  onRequestCreated?: () => void;
  bodyLimitBytes?: number;
  /** Express "trust proxy" (config.http.trustProxy): a hop count or proxy addresses, never true. */
  trustProxy?: TrustProxy;
}

export interface LeadsApp {
  app: express.Express;
  searches: LeadSearches;
  /** Resolves when running searches and background mail sends have finished. */
  idle(): Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = { emailMaxAttempts: 5, webhookMaxAttempts: 8 };

function parse<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new InvalidInput('The request body must be a JSON object.');
  }
  return parseOrInvalid(schema, body ?? {});
}

function searchView(s: SearchRecord): Record<string, unknown> {
  return {
    search_id: s.id,
    status: s.status,
    ...(s.status === 'complete' ? { results: s.results ?? [], meta: s.meta } : {}),
    ...(s.status === 'failed' ? { error: s.error } : {}),
  };
}

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

export function createLeadsApp(deps: LeadsAppDeps): LeadsApp {
  const { store, log } = deps;
  const now = deps.now ?? Date.now;
  const limits = deps.limits ?? FREE_TIER;
  const regLimits = deps.registrationLimits ?? DEFAULT_REGISTRATION_LIMITS;
  const auth = new KeyAuthenticator(store, deps.operatorKeys);
  const background = new Set<Promise<unknown>>();
  const registration = new Registration({
    store,
    mailer: deps.mailer,
    log,
    limits: regLimits,
    now,
    publicUrl: deps.publicUrl,
    background: (work) => {
      const p = work.finally(() => background.delete(p));
      background.add(p);
    },
  });

  const gate = (kind: QuotaKind) => async (principal: Principal, category: Category) => {
    if (principal.unlimited) return;
    const at = now();
    const outcome = await store.consumeQuota(principal.accountId, utcDay(at), kind, category, limits);
    if (outcome.ok) return;
    const retry = secondsUntilUtcMidnight(at);
    if (outcome.exceeded === 'categories') {
      throw new RateLimited(
        `This key already used ${limits.categoriesPerDay} service categories today (${outcome.usage.categories.join(', ')}); other categories are available again after midnight UTC.`,
        retry,
        'CATEGORY_QUOTA_EXCEEDED',
      );
    }
    throw new RateLimited(`The daily quota of ${limitFor(kind, limits)} ${kind} is spent; it resets at midnight UTC.`, retry, 'QUOTA_EXCEEDED');
  };
  const searches = new LeadSearches({ store, log, now, consumeQuota: gate('searches') });
  const requests = new LeadRequests({ store, retry: deps.retry ?? DEFAULT_RETRY, now, consumeQuota: gate('requests') });

  const clientIp = (req: Request) => req.ip ?? req.socket.remoteAddress ?? 'unknown';

  /** Authenticates and puts the key's quota headers on the response. */
  const principalFor = async (req: Request, res: Response, kind: QuotaKind): Promise<Principal> => {
    const principal = await auth.authenticate(req);
    await refreshQuotaHeaders(res, principal, kind);
    return principal;
  };
  const refreshQuotaHeaders = async (res: Response, principal: Principal, kind: QuotaKind) => {
    if (principal.unlimited) {
      // Operator keys have no quota: the per-IP headers set earlier do not describe them either.
      for (const h of ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']) res.removeHeader(h);
      return;
    }
    const at = now();
    setQuotaHeaders(res, kind, await store.getUsage(principal.accountId, utcDay(at)), limits, at);
  };

  const requireJson = (req: Request, _res: Response, next: NextFunction) => {
    const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
    if (hasBody && !req.is('application/json')) {
      next(new UnsupportedMediaType('Send the body as JSON with "Content-Type: application/json".'));
      return;
    }
    next();
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);

  // Every response carries RateLimit-* headers: the per-IP limiter here, replaced by the key's quota once
  // a route has authenticated the caller.
  app.use(async (req, res, next) => {
    try {
      const s = await registration.ipState(clientIp(req));
      setIpLimitHeaders(res, regLimits.perIp, s.used, s.resetSeconds, Math.round(regLimits.windowMs / 1000));
      next();
    } catch (err) {
      next(err);
    }
  });
  app.use(express.json({ limit: deps.bodyLimitBytes ?? 64 * 1024 }));

  app.get('/healthz', async (_req, res) => {
    const stats = await store.directoryStats();
    res.json({ ok: true, pros: stats.total, dataset: stats.demo > 0 ? 'demo' : 'imported' });
  });

  app.get('/v1/categories', (_req, res) => {
    res.json({
      categories: CATEGORY_SLUGS.map((slug) => ({ slug, label: CATEGORY_LABELS[slug], synonyms: CATEGORY_SYNONYMS[slug] })),
    });
  });

  // ---- Registration and keys ----

  app.post('/v1/register', requireJson, async (req, res) => {
    const body = parse(registerBody, req.body);
    await registration.register(body.email, clientIp(req));
    const s = await registration.ipState(clientIp(req));
    setIpLimitHeaders(res, regLimits.perIp, s.used, s.resetSeconds, Math.round(regLimits.windowMs / 1000));
    res.status(202).json({ message: REGISTER_MESSAGE });
  });

  app.get('/v1/register/verify', async (req, res) => {
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    const { email } = await registration.verify(token);
    const message = `Your address ${email} is verified. Your API key has been e-mailed to it; it is not shown here or sent again.`;
    res.format({
      'text/html': () => {
        res.send(`<!doctype html><meta charset="utf-8"><title>Verified</title><p>${message.replace(/[<>&"]/g, (c) => `&#${c.charCodeAt(0)};`)}</p>`);
      },
      default: () => {
        res.json({ message });
      },
    });
  });

  app.post('/v1/keys/rotate', async (req, res) => {
    const principal = await principalFor(req, res, 'searches');
    if (principal.unlimited) throw new Forbidden('Operator keys are set in the configuration, not rotated here.', 'OPERATOR_KEY');
    const key = newApiKey();
    await store.rotateKey(principal.keyId, key, now());
    res.json({
      api_key: key.key,
      message: 'Your previous key is revoked. This is the only time the new key is shown; store it now.',
    });
  });

  app.post('/v1/keys/revoke', async (req, res) => {
    const principal = await principalFor(req, res, 'searches');
    if (principal.unlimited) throw new Forbidden('Operator keys are set in the configuration, not revoked here.', 'OPERATOR_KEY');
    await store.revokeKey(principal.keyId, now());
    res.json({ message: 'The key is revoked. Register again to get a new one.' });
  });

  app.get('/v1/usage', async (req, res) => {
    const principal = await principalFor(req, res, 'searches');
    const at = now();
    const usage = principal.unlimited ? { searches: 0, requests: 0, categories: [] } : await store.getUsage(principal.accountId, utcDay(at));
    res.json({
      day: utcDay(at),
      resets_in_seconds: secondsUntilUtcMidnight(at),
      unlimited: principal.unlimited,
      searches: { used: usage.searches, limit: principal.unlimited ? null : limits.searchesPerDay },
      requests: { used: usage.requests, limit: principal.unlimited ? null : limits.requestsPerDay },
      categories: { used: usage.categories, limit: principal.unlimited ? null : limits.categoriesPerDay },
    });
  });

  // ---- Searches ----

  app.post('/v1/searches', requireJson, async (req, res) => {
    const principal = await principalFor(req, res, 'searches');
    const body = parse(searchBody, req.body);
    const search = await searches.create(principal, body);
    await refreshQuotaHeaders(res, principal, 'searches');
    res.status(202).location(`/v1/searches/${search.id}`).json({ search_id: search.id, status: search.status });
  });

  app.get('/v1/searches/:id', async (req, res) => {
    const principal = await principalFor(req, res, 'searches');
    const search = await store.getSearch(String(req.params.id));
    if (!search || (!principal.unlimited && search.accountId !== principal.accountId)) {
      throw new NotFound(`No search "${String(req.params.id).slice(0, 64)}" for this key.`, 'UNKNOWN_SEARCH');
    }
    if (search.status === 'pending') res.setHeader('Retry-After', '1');
    res.json(searchView(search));
  });

  // ---- Requests ----

  app.post('/v1/requests', requireJson, async (req, res) => {
    const principal = await principalFor(req, res, 'requests');
    const body = parse(requestBody, req.body);
    const idem = req.get('idempotency-key');
    if (idem !== undefined && (idem.length < 1 || idem.length > 255)) {
      throw new InvalidInput('Idempotency-Key must be 1 to 255 characters.', 'Idempotency-Key');
    }
    const outcome = await requests.submit(principal, body, { idempotencyKey: idem, ip: clientIp(req) });
    if (outcome.created) deps.onRequestCreated?.();
    await refreshQuotaHeaders(res, principal, 'requests');
    if (outcome.replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.status(outcome.created ? 201 : 200).location(`/v1/requests/${outcome.request.id}`).json(requestResponse(outcome));
  });

  app.get('/v1/requests/:id', async (req, res) => {
    const principal = await principalFor(req, res, 'requests');
    const id = String(req.params.id);
    const request = await store.getRequest(id);
    if (!request || (!principal.unlimited && !(await store.canAccessRequest(id, principal.accountId)))) {
      throw new NotFound(`No request "${id.slice(0, 64)}" for this key.`, 'UNKNOWN_REQUEST');
    }
    const deliveries = await store.listDeliveries(id);
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

  app.use((req, _res, next) => {
    next(new NotFound(`No route ${req.method} ${req.path}. See docs/leads.md for the lead service API.`, 'NO_ROUTE'));
  });

  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const appErr = toAppError(err);
    if (!appErr) {
      log.error('lead service request failed', { method: req.method, path: req.path, err });
      res.status(500).json({ error: 'Internal error; try again later.', code: 'INTERNAL', retry: true });
      return;
    }
    for (const [k, v] of Object.entries(appErr.headers)) res.setHeader(k, v);
    res.status(appErr.status).json(appErr.toBody());
  });

  return {
    app,
    searches,
    async idle() {
      await searches.idle();
      while (background.size > 0) await Promise.allSettled([...background]);
    },
  };
}

const registerBody = z.object({ email: z.email().max(254) });

/** body-parser's errors carry a `type`; map them to the shared error classes. */
function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  const type = (err as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return new InvalidInput('The request body is not valid JSON.');
  if (type === 'entity.too.large') return new PayloadTooLarge('The request body is too large.');
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') return new UnsupportedMediaType('Send the body as UTF-8 JSON.');
  return undefined;
}
