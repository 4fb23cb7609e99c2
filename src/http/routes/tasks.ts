// REST tasks: create (POST /v1/tools/{tool}/tasks), read and wait (GET /v1/tasks/{id}), cancel.
import { crawlProgress } from '../../engine/crawl-progress.js';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { Engine } from '../../engine/engine.js';
import { boundedResult, type ResultBound } from '../../engine/result-view.js';
import { toTaskView } from '../../engine/task-view.js';
import { AppError, Forbidden, InvalidInput, NotFound, Unauthorized } from '../../errors.js';
import { readRangeQuery, REST_MAX_CHARS, toReadRange } from '../../registry/bounded-result.js';
import { parseOrInvalid } from '../../registry/input-errors.js';
import type { ToolRegistry } from '../../registry/registry.js';
import type { TaskRow } from '../../store/port.js';
import { readCredential } from '../../web/credential.js';
import { requireJson } from '../../web/errors.js';
import { applyRateLimit } from '../../web/rate-limit.js';
import { sendJson } from '../../web/send-json.js';
import { createTaskFromRequest, type CreateTaskDeps } from './create-task.js';

export interface TaskRoutesDeps extends CreateTaskDeps {
  /** Extra ways to prove who may read a task (SIWX); returns true when the request may read it. */
  readAuthorizers?: ((req: Request, task: TaskRow) => Promise<boolean>)[];
  /** The JSON body parser: only the routes that read a body run it. */
  json: RequestHandler;
  /** Middleware every route here runs first (the per-address rate limit, when one is configured). */
  before: RequestHandler[];
}

const waitQuery = z.object({
  wait: z.coerce.number().min(0, 'must be 0 to 30 seconds').max(30, 'must be at most 30 seconds').optional(),
});

const NO_WAIT: z.ZodSafeParseResult<z.output<typeof waitQuery>> = { success: true, data: {} };

/** REST's window on a bounded result: large (programs read it), the input's or the query's when given. */
export function restBound(registry: ToolRegistry): ResultBound {
  return { registry, maxChars: REST_MAX_CHARS };
}

/** The task a poll answers with, or the poll's 404 (shared with the fast lane). */
export async function taskToPoll(engine: Engine, id: string): Promise<TaskRow> {
  const task = await engine.get(id);
  if (!task) throw new NotFound(`No task ${id} (finished tasks are kept for a limited time).`, 'TASK_NOT_FOUND');
  return task;
}

/** A polled task as REST shows it: the task view, and a running crawl's progress (pages done, queued, failed). */
export async function pollView(engine: Engine, task: TaskRow): Promise<Record<string, unknown>> {
  const progress = await crawlProgress(engine.store, task);
  return { ...toTaskView(task, restBound(engine.registry)), ...(progress ? { progress } : {}) };
}

export function taskRoutes(d: TaskRoutesDeps): Router {
  const r = Router();

  r.post('/v1/tools/:tool/tasks', ...d.before, requireJson, async (req: Request, res: Response) => {
    // The JSON parser runs only once the credential was accepted (see createTaskFromRequest).
    const readBody = () =>
      new Promise<unknown>((resolve, reject) => {
        d.json(req, res, (err?: unknown) => (err ? reject(err as Error) : resolve(req.body)));
      });
    await createTaskFromRequest(d, String(req.params.tool), readBody, req, res);
  });

  r.get('/v1/tasks/:id', ...d.before, async (req: Request, res: Response) => {
    const id = String(req.params.id);
    // Most polls carry no query string: skip the schema for them.
    const q = req.url.includes('?') ? waitQuery.safeParse(req.query) : NO_WAIT;
    if (!q.success) throw new InvalidInput(`wait: ${q.error.issues[0]?.message}`, 'wait');
    await authorizeRead(req, id);
    let task = await taskToPoll(d.engine, id);
    if (q.data.wait && q.data.wait > 0) {
      const ac = new AbortController();
      res.on('close', () => ac.abort());
      task = (await d.engine.waitFor(id, q.data.wait * 1000, ac.signal)) ?? task;
    }
    sendJson(res, 200, await pollView(d.engine, task));
  });

  // One window of a finished task's result, read from the store: no second render and no charge.
  r.get('/v1/tasks/:id/result', ...d.before, async (req: Request, res: Response) => {
    const id = String(req.params.id);
    const range = toReadRange(parseOrInvalid(readRangeQuery, req.query));
    await authorizeRead(req, id);
    const task = await taskToPoll(d.engine, id);
    if (task.status !== 'complete') {
      throw new AppError(409, 'TASK_NOT_COMPLETE', `Task ${id} is ${task.status}; its result can be read once it is complete.`);
    }
    sendJson(res, 200, boundedResult(task, { ...restBound(d.engine.registry), range }));
  });

  r.post('/v1/tasks/:id/cancel', ...d.before, async (req: Request, res: Response) => {
    const id = String(req.params.id);
    await authorizeRead(req, id);
    const task = await d.engine.cancel(id);
    if (!task) throw new NotFound(`No task ${id}.`, 'TASK_NOT_FOUND');
    // A pending task is cancelled at once (200). A running one stops when its worker notices: answer what
    // is true now, 202 with status "running" and cancel_requested, and let the caller poll for "cancelled".
    res.status(task.status === 'running' ? 202 : 200).json(toTaskView(task, restBound(d.engine.registry)));
  });

  /** Poll token for this task, or the API key that created it, or another authorizer (SIWX). */
  async function authorizeRead(req: Request, id: string): Promise<void> {
    const credential = await readCredential(req, d.engine.store, d.keys);
    if (credential.kind === 'poll-token') {
      await d.pollTokens.verifyFor(credential.token, id);
      return;
    }
    if (credential.kind === 'key') {
      await applyRateLimit(d.keyLimiter, `key:${credential.key.id}`, req.res!);
      const task = await d.engine.get(id);
      if (!task) throw new NotFound(`No task ${id}.`, 'TASK_NOT_FOUND');
      if (task.payer.kind !== 'key' || task.payer.id !== credential.key.id) {
        throw new Forbidden('This task was created with another credential.', 'NOT_YOUR_TASK');
      }
      return;
    }
    if (d.readAuthorizers?.length) {
      const task = await d.engine.get(id);
      if (task) for (const authorize of d.readAuthorizers) if (await authorize(req, task)) return;
    }
    if (credential.kind === 'bearer') throw new Unauthorized('Unrecognised bearer token: use the poll token (pt_…) or the API key (sk_…).', 'INVALID_TOKEN');
    throw new Unauthorized('Send "Authorization: Bearer <poll_token>" (returned when the task was created).', 'MISSING_CREDENTIAL');
  }

  return r;
}
