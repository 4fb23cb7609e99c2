// The lead service's HTTP front door (its own Express app and port), assembled from the route files in
// routes/. Routes only translate between HTTP and the searches / requests / registration modules; errors
// go through the platform's one mapping (http/errors.ts) to the shared {error, code, field, retry} body.
import express from 'express';
import type { TrustProxy } from '../config.js';
import { NotFound } from '../errors.js';
import { errorHandler } from '../web/errors.js';
import type { Logger } from '../logger.js';
import { KeyAuthenticator } from './auth.js';
import type { Mailer } from './mailer.js';
import type { RetryPolicy } from './notifications.js';
import { FREE_TIER } from './quota.js';
import { DEFAULT_REGISTRATION_LIMITS, Registration, type RegistrationLimits } from './registration.js';
import { LeadRequests } from './requests.js';
import { Callers, clientIp } from './routes/caller.js';
import { directoryRoutes } from './routes/directory.js';
import { keyRoutes } from './routes/keys.js';
import { registrationRoutes, setRegistrationLimitHeaders } from './routes/registration.js';
import { requestRoutes } from './routes/requests.js';
import { searchRoutes } from './routes/searches.js';
import { LeadSearches } from './searches.js';
import type { LeadStore } from './store.js';
import type { QuotaLimits } from './types.js';

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

export function createLeadsApp(deps: LeadsAppDeps): LeadsApp {
  const { store, log } = deps;
  const now = deps.now ?? Date.now;
  const limits = deps.limits ?? FREE_TIER;
  const regLimits = deps.registrationLimits ?? DEFAULT_REGISTRATION_LIMITS;
  const callers = new Callers({ store, auth: new KeyAuthenticator(store, deps.operatorKeys), limits, now });
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
  const searches = new LeadSearches({ store, log, now, consumeQuota: callers.quotaGate('searches') });
  const requests = new LeadRequests({ store, retry: deps.retry ?? DEFAULT_RETRY, now, consumeQuota: callers.quotaGate('requests') });

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? false);
  // Every response carries RateLimit-* headers: the per-IP limiter here, replaced by the key's quota once
  // a route has authenticated the caller.
  app.use(async (req, res, next) => {
    try {
      await setRegistrationLimitHeaders(res, registration, regLimits, clientIp(req));
      next();
    } catch (err) {
      next(err);
    }
  });
  app.use(express.json({ limit: deps.bodyLimitBytes ?? 64 * 1024 }));
  app.use(directoryRoutes(store));
  app.use(registrationRoutes(registration, regLimits));
  app.use(keyRoutes({ store, callers, limits, now }));
  app.use(searchRoutes({ store, callers, searches }));
  app.use(requestRoutes({ store, callers, requests, onRequestCreated: deps.onRequestCreated }));
  app.use((req, _res, next) => {
    next(new NotFound(`No route ${req.method} ${req.path}. See docs/leads.md for the lead service API.`, 'NO_ROUTE'));
  });
  app.use(errorHandler(log));

  return {
    app,
    searches,
    async idle() {
      await searches.idle();
      while (background.size > 0) await Promise.allSettled([...background]);
    },
  };
}
