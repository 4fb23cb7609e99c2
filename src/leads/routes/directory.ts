// GET /healthz and GET /v1/categories: what the directory holds, and the service categories it knows.
import { Router } from 'express';
import { CATEGORY_LABELS, CATEGORY_SLUGS, CATEGORY_SYNONYMS } from '../categories.js';
import type { LeadStore } from '../store.js';

export function directoryRoutes(store: LeadStore): Router {
  const r = Router();
  r.get('/healthz', async (_req, res) => {
    const stats = await store.directoryStats();
    res.json({ ok: true, pros: stats.total, dataset: stats.demo > 0 ? 'demo' : 'imported' });
  });
  r.get('/v1/categories', (_req, res) => {
    res.json({
      categories: CATEGORY_SLUGS.map((slug) => ({ slug, label: CATEGORY_LABELS[slug], synonyms: CATEGORY_SYNONYMS[slug] })),
    });
  });
  return r;
}
