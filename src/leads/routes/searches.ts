// POST /v1/searches (accepted at once, run in the background) and GET /v1/searches/{id}.
import { Router } from 'express';
import { requireJson } from '../../web/errors.js';
import { NotFound } from '../../errors.js';
import { searchBody, type LeadSearches } from '../searches.js';
import type { LeadStore } from '../store.js';
import type { SearchRecord } from '../types.js';
import { parseBody, type Callers } from './caller.js';

function searchView(s: SearchRecord): Record<string, unknown> {
  return {
    search_id: s.id,
    status: s.status,
    ...(s.status === 'complete' ? { results: s.results ?? [], meta: s.meta } : {}),
    ...(s.status === 'failed' ? { error: s.error } : {}),
  };
}

export function searchRoutes(d: { store: LeadStore; callers: Callers; searches: LeadSearches }): Router {
  const r = Router();
  r.post('/v1/searches', requireJson, async (req, res) => {
    const principal = await d.callers.principal(req, res, 'searches');
    const body = parseBody(searchBody, req.body);
    const search = await d.searches.create(principal, body);
    await d.callers.refreshQuotaHeaders(res, principal, 'searches');
    res.status(202).location(`/v1/searches/${search.id}`).json({ search_id: search.id, status: search.status });
  });

  r.get('/v1/searches/:id', async (req, res) => {
    const principal = await d.callers.principal(req, res, 'searches');
    const search = await d.store.getSearch(String(req.params.id));
    if (!search || (!principal.unlimited && search.accountId !== principal.accountId)) {
      throw new NotFound(`No search "${String(req.params.id).slice(0, 64)}" for this key.`, 'UNKNOWN_SEARCH');
    }
    if (search.status === 'pending') res.setHeader('Retry-After', '1');
    res.json(searchView(search));
  });
  return r;
}
