// GET/HEAD /files/<file_id>[.ext]?expires=…&sig=… — signed artifact downloads. The lead mounts
// createFilesRouter(...) at /files; all decisions live in serveArtifact, this only copies them out.
import express, { type Router } from 'express';
import type { ArtifactStore } from './artifact-store.js';
import { serveArtifact } from './serve-artifact.js';

export interface FilesRouterDeps {
  /** The artifact store (e.g. `() => scope.use(artifactStoreService)`); asked per request, created lazily. */
  getStore: () => Promise<ArtifactStore>;
  /** The service secret (`resolveSecret(config)`). */
  secret: string;
}

export function createFilesRouter(deps: FilesRouterDeps): Router {
  const router = express.Router();
  router.get('/:name', async (req, res) => {
    const out = await serveArtifact(await deps.getStore(), deps.secret, req.params.name, req.query as Record<string, unknown>);
    res.status(out.status).set(out.headers);
    if (Buffer.isBuffer(out.body)) res.end(out.body);
    else res.json(out.body);
  });
  return router;
}
