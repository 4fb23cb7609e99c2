// POST /v1/keys/rotate, POST /v1/keys/revoke and GET /v1/usage: a registered key manages itself.
import { Router } from 'express';
import { Forbidden } from '../../errors.js';
import { newApiKey } from '../auth.js';
import { secondsUntilUtcMidnight, utcDay } from '../quota.js';
import type { LeadStore } from '../store.js';
import type { QuotaLimits } from '../types.js';
import type { Callers } from './caller.js';

export function keyRoutes(d: { store: LeadStore; callers: Callers; limits: QuotaLimits; now: () => number }): Router {
  const r = Router();
  r.post('/v1/keys/rotate', async (req, res) => {
    const principal = await d.callers.principal(req, res, 'searches');
    if (principal.unlimited) throw new Forbidden('Operator keys are set in the configuration, not rotated here.', 'OPERATOR_KEY');
    const key = newApiKey();
    await d.store.rotateKey(principal.keyId, key, d.now());
    res.json({
      api_key: key.key,
      message: 'Your previous key is revoked. This is the only time the new key is shown; store it now.',
    });
  });

  r.post('/v1/keys/revoke', async (req, res) => {
    const principal = await d.callers.principal(req, res, 'searches');
    if (principal.unlimited) throw new Forbidden('Operator keys are set in the configuration, not revoked here.', 'OPERATOR_KEY');
    await d.store.revokeKey(principal.keyId, d.now());
    res.json({ message: 'The key is revoked. Register again to get a new one.' });
  });

  r.get('/v1/usage', async (req, res) => {
    const principal = await d.callers.principal(req, res, 'searches');
    const at = d.now();
    const usage = principal.unlimited ? { searches: 0, requests: 0, categories: [] } : await d.store.getUsage(principal.accountId, utcDay(at));
    const limit = (n: number) => (principal.unlimited ? null : n);
    res.json({
      day: utcDay(at),
      resets_in_seconds: secondsUntilUtcMidnight(at),
      unlimited: principal.unlimited,
      searches: { used: usage.searches, limit: limit(d.limits.searchesPerDay) },
      requests: { used: usage.requests, limit: limit(d.limits.requestsPerDay) },
      categories: { used: usage.categories, limit: limit(d.limits.categoriesPerDay) },
    });
  });
  return r;
}
