// The two hottest requests served without Express: task creation with an API key (POST
// /v1/tools/{tool}/tasks, JSON, "Bearer sk_…") and a poll with the poll token (GET /v1/tasks/{id},
// "Bearer pt_…", no ?wait). Creation spends more in Express than in its own work: the router's
// layers, its `next` closures and the request prototypes allocate ~20 KB per request, and at 1,000
// requests/s enough of it survives a young-generation collection to make pauses of 5–10 ms (measured with
// --trace-gc: a plain Node handler allocates ~8 KB and promotes almost nothing). This lane takes only
// requests it can answer exactly as the Express route would, and decides that from the headers before
// reading a byte of the body; everything else (other content types, chunked or compressed bodies, other
// credentials, a trusted proxy's forwarded addresses) goes to Express untouched.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { TrustProxy } from '../config.js';
import type { Logger } from '../logger.js';
import { sendError } from '../web/errors.js';
import { applyAddressLimit, type Limiter } from '../web/rate-limit.js';
import { sendJson } from '../web/send-json.js';
import { createTaskFromRequest, type CreateTaskDeps } from './routes/create-task.js';
import { pollView, taskToPoll } from './routes/tasks.js';

export interface FastLaneOptions {
  deps: CreateTaskDeps;
  /** The JSON body limit of the Express route: a larger body goes there and gets its 413. */
  bodyLimitBytes: number;
  /** The per-address limiter when one is configured (limit > 0). */
  ipLimiter: Limiter | undefined;
  trustProxy: TrustProxy;
  log: Logger;
}

const CREATE_PATH = /^\/v1\/tools\/([A-Za-z0-9._-]+)\/tasks$/;
const POLL_PATH = /^\/v1\/tasks\/([A-Za-z0-9_-]+)$/;
/** The poll tokens bearerToken (web/credential.ts) reads the same way: one space, no trailing blanks. */
const POLL_TOKEN = /^Bearer (pt_\S+)$/;
/** application/json, optionally with a UTF-8 charset: the only bodies body-parser reads the same way. */
const JSON_TYPE = /^application\/json\s*(?:;\s*charset\s*=\s*"?utf-8"?\s*)?$/i;

/** `app` with the lane in front of it. */
export function withFastLane(app: RequestListener, o: FastLaneOptions): RequestListener {
  // Express's req.ip is the socket's address unless a proxy is trusted; then its X-Forwarded-For rules
  // apply, which only Express implements here.
  const addressIsSocket = o.trustProxy === false || o.trustProxy === 0;
  return (req, res) => {
    if (o.ipLimiter && !addressIsSocket) {
      app(req, res);
      return;
    }
    const tool = creationTool(req, o.bodyLimitBytes);
    if (tool !== undefined) {
      void answer(req, res, o, async () => createTaskFromRequest(o.deps, tool, async () => parseJson(await readBody(req)), req, res));
      return;
    }
    const read = pollRequest(req);
    if (read !== undefined) {
      void answer(req, res, o, async () => {
        await o.deps.pollTokens.verifyFor(read.token, read.id);
        sendJson(res, 200, await pollView(o.deps.engine, await taskToPoll(o.deps.engine, read.id)));
      });
      return;
    }
    app(req, res);
  };
}

/** The tool named by a creation request this lane answers exactly as Express would, else undefined. */
export function creationTool(req: IncomingMessage, bodyLimitBytes: number): string | undefined {
  if (req.method !== 'POST') return undefined;
  const m = CREATE_PATH.exec(req.url ?? '');
  if (!m) return undefined;
  const h = req.headers;
  if (!h.authorization?.startsWith('Bearer sk_')) return undefined;
  if (h['transfer-encoding'] !== undefined || (h['content-encoding'] !== undefined && h['content-encoding'] !== 'identity')) return undefined;
  const length = Number(h['content-length'] ?? '0');
  if (!(length <= bodyLimitBytes)) return undefined;
  // An empty body counts as {} whatever its type, as requireJson and body-parser agree.
  if (length > 0 && !JSON_TYPE.test(h['content-type'] ?? '')) return undefined;
  return m[1];
}

/** What every lane request shares with the Express routes: the per-address limit first, errors mapped alike. */
async function answer(req: IncomingMessage, res: ServerResponse, o: FastLaneOptions, work: () => Promise<void>): Promise<void> {
  try {
    if (o.ipLimiter) await applyAddressLimit(o.ipLimiter, req.socket.remoteAddress, res);
    await work();
  } catch (err) {
    sendError(res, err, o.log, req.method, req.url ?? '');
  }
}

/** The task and poll token of a poll this lane answers exactly as Express would, else undefined. */
export function pollRequest(req: IncomingMessage): { id: string; token: string } | undefined {
  if (req.method !== 'GET') return undefined;
  const m = POLL_PATH.exec(req.url ?? '');
  if (!m) return undefined;
  const t = POLL_TOKEN.exec(req.headers.authorization ?? '');
  return t ? { id: m[1]!, token: t[1]! } : undefined;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve((chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8')));
    // The same error body-parser gives, so the error mapping (web/errors.ts) words it the same.
    const aborted = () => reject(Object.assign(new Error('request aborted'), { type: 'request.aborted' }));
    req.on('error', aborted);
    // A client gone before the end of its body: settle (a no-op after 'end'), so nothing waits on it.
    req.on('close', () => {
      if (!req.complete) aborted();
    });
  });
}

/** body-parser's non-strict JSON: empty is {}, a leading byte-order mark is dropped, errors keep JSON.parse's words. */
function parseJson(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.length === 0) return {};
  try {
    return JSON.parse(body) as unknown;
  } catch (err) {
    throw Object.assign(new SyntaxError((err as Error).message), { type: 'entity.parse.failed' });
  }
}
