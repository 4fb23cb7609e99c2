// Artifact links for a stdio MCP session. Over stdio there is no HTTP service, so a file_url on
// PUBLIC_URL's default (http://127.0.0.1:8080) would point at nothing. The stdio process serves /files
// itself on an ephemeral loopback port and signs links for it; they work while the session runs.
// The port is bound at once (its URL goes into the config), but Express and the files router load on the
// first request: most sessions never fetch a file, and a desktop client waits on our start-up.
import type { AddressInfo } from 'node:net';
import http from 'node:http';
import type { ArtifactStore } from '../artifacts/artifact-store.js';

export interface StdioFileServer {
  /** Base for artifact links, e.g. http://127.0.0.1:40123 */
  url: string;
  close(): Promise<void>;
}

type Listener = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function filesApp(getStore: () => Promise<ArtifactStore>, secret: string): Promise<Listener> {
  const [{ default: express }, { createFilesRouter }] = await Promise.all([import('express'), import('../artifacts/files-router.js')]);
  const app = express();
  app.disable('x-powered-by');
  app.use('/files', createFilesRouter({ getStore, secret }));
  app.use((_req, res) => res.status(404).json({ error: 'Only /files is served here.', code: 'NOT_FOUND', retry: false }));
  return app;
}

export async function startStdioFileServer(getStore: () => Promise<ArtifactStore>, secret: () => string): Promise<StdioFileServer> {
  let app: Promise<Listener> | undefined;
  const server = http.createServer((req, res) => {
    (app ??= filesApp(getStore, secret())).then(
      (listener) => listener(req, res),
      () => {
        app = undefined;
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"The file server could not start.","code":"INTERNAL","retry":true}');
      },
    );
  });
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
