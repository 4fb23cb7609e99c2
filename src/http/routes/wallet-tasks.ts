// GET /v1/tasks lists the caller's tasks: an API key's, or (x402 sign-in-with-x) a wallet's, filtered by
// status, tool and creation time, newest first. The read authorizer lets a signed-in wallet read
// (GET /v1/tasks/{id}) the tasks it paid for without their poll tokens. With x402 on, a request with no
// credential is answered 402 with a fresh sign-in challenge, which x402 clients sign and send back in
// SIGN-IN-WITH-X; with x402 off it is 401.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { X402Payments } from '../../billing/x402/payments.js';
import { SIGN_IN_WITH_X } from '../../billing/x402/siwx.js';
import { HEADER, encodeBase64Json, type PaymentRequired as PaymentRequiredObject } from '../../billing/x402/wire.js';
import type { Engine } from '../../engine/engine.js';
import { toTaskView } from '../../engine/task-view.js';
import { restBound } from './tasks.js';
import { Forbidden, InvalidInput, PaymentRequired, Unauthorized } from '../../errors.js';
import type { Payer, TaskRow } from '../../store/port.js';
import { readCredential } from '../../web/credential.js';

const CURSOR = /^(\d{1,15})\.(task_[0-9a-z]{1,64})$/;

const listQuery = z.object({
  limit: z.coerce.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').default(20),
  before: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time (next_before of the previous page)' }).optional(),
  cursor: z.string().regex(CURSOR, 'must be the next_cursor of the previous page').optional(),
  status: z.enum(['pending', 'running', 'complete', 'failed', 'cancelled'], 'must be one of pending, running, complete, failed, cancelled').optional(),
  tool: z.string().min(1, 'must be a tool name').max(100, 'must be a tool name').optional(),
  since: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
});

export interface WalletTaskDeps {
  engine: Engine;
  /** Absent when x402 is off: then only API keys list tasks. */
  x402: X402Payments | undefined;
  publicUrl: string;
}

/** Mounted at /v1/tasks (behind the app's per-address limit on /v1): GET / lists the caller's tasks, newest first. */
export function walletTaskRoutes(d: WalletTaskDeps): Router {
  const r = Router();
  r.get('/', async (req: Request, res: Response) => {
    const q = listQuery.safeParse(req.query);
    if (!q.success) {
      const issue = q.error.issues[0];
      throw new InvalidInput(`${issue?.path.join('.')}: ${issue?.message}`, String(issue?.path[0] ?? 'query'));
    }
    const payer = await payerOf(req, d);
    const cursor = q.data.cursor ? CURSOR.exec(q.data.cursor) : null;
    const rows = await d.engine.store.listTasks({
      payer,
      limit: q.data.limit,
      ...(q.data.status ? { status: q.data.status } : {}),
      ...(q.data.tool ? { tool: q.data.tool } : {}),
      ...(q.data.since ? { since: Date.parse(q.data.since) } : {}),
      ...(cursor ? { before: Number(cursor[1]), beforeId: cursor[2]! } : q.data.before ? { before: Date.parse(q.data.before) } : {}),
    });
    const last = rows.length === q.data.limit ? rows[rows.length - 1] : undefined;
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      ...(payer.kind === 'x402' ? { wallet: payer.id } : {}),
      tasks: rows.map((t) => toTaskView(t, restBound(d.engine.registry))),
      count: rows.length,
      // next_cursor is exact (ties in the same millisecond); next_before is kept for existing clients.
      next_cursor: last ? `${last.createdAt}.${last.id}` : null,
      next_before: last ? new Date(last.createdAt).toISOString() : null,
    });
  });
  return r;
}

async function payerOf(req: Request, d: WalletTaskDeps): Promise<Payer> {
  const signIn = req.get(SIGN_IN_WITH_X);
  if (signIn && d.x402) return { kind: 'x402', id: await d.x402.signIn.verify(signIn) };
  const credential = await readCredential(req, d.engine.store);
  if (credential.kind === 'key') return { kind: 'key', id: credential.key.id };
  if (credential.kind === 'poll-token')
    throw new Unauthorized('A poll token reads only its own task; list tasks by signing in with your wallet or with the API key.', 'WRONG_CREDENTIAL');
  if (credential.kind === 'bearer') throw new Unauthorized('Unrecognised bearer token: API keys start with sk_.', 'INVALID_API_KEY');
  if (!d.x402) throw new Unauthorized('Send the API key as "Authorization: Bearer sk_…" to list its tasks.', 'MISSING_CREDENTIAL');
  const url = `${d.publicUrl}/v1/tasks`;
  const challenge: PaymentRequiredObject = {
    x402Version: 2,
    error: 'sign_in_required',
    resource: { url, description: 'The tasks this wallet paid for.', mimeType: 'application/json' },
    accepts: [],
    extensions: { [SIGN_IN_WITH_X]: d.x402.signIn.challenge(url) },
  };
  const { error: _code, ...body } = challenge;
  throw new PaymentRequired(
    'Sign in with the wallet that paid to list its tasks: sign the sign-in-with-x challenge below (SIWE) and send it base64-encoded in the SIGN-IN-WITH-X header. Signing in never pays for anything. API keys: send "Authorization: Bearer sk_…".',
    'SIGN_IN_REQUIRED',
    body,
    { [HEADER.paymentRequired]: encodeBase64Json(challenge), 'Cache-Control': 'no-store' },
  );
}

/** readAuthorizer for GET /v1/tasks/{id}: a signed-in wallet may read the tasks it paid for. */
export function walletReadAuthorizer(x402: X402Payments): (req: Request, task: TaskRow) => Promise<boolean> {
  return async (req, task) => {
    const header = req.get(SIGN_IN_WITH_X);
    if (!header) return false;
    const wallet = await x402.signIn.verify(header);
    if (task.payer.kind === 'x402' && task.payer.id?.toLowerCase() === wallet.toLowerCase()) return true;
    throw new Forbidden('This task was not paid for by the signed-in wallet.', 'NOT_YOUR_TASK');
  };
}
