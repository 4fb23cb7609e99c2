// Artifact links for a stdio MCP session. Over stdio there is no HTTP service, so a file_url on
// PUBLIC_URL's default (http://127.0.0.1:8080) would point at nothing. The stdio process serves /files
// itself on an ephemeral loopback port and signs links for it; they work while the session runs.
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import express from 'express';
import { createFilesRouter } from '../artifacts/files-router.js';
import type { ArtifactStore } from '../artifacts/artifact-store.js';

export interface StdioFileServer {
  /** Base for artifact links, e.g. http://127.0.0.1:40123 */
  url: string;
  close(): Promise<void>;
}

export async function startStdioFileServer(getStore: () => Promise<ArtifactStore>, secret: string): Promise<StdioFileServer> {
  const app = express();
  app.disable('x-powered-by');
  app.use('/files', createFilesRouter({ getStore, secret }));
  app.use((_req, res) => res.status(404).json({ error: 'Only /files is served here.', code: 'NOT_FOUND', retry: false }));
  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
