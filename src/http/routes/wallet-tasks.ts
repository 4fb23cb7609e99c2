// Wallet identity on the REST API (x402 sign-in-with-x): GET /v1/tasks lists the tasks a wallet paid
// for (or an API key created), and the read authorizer lets a signed-in wallet read (GET /v1/tasks/{id})
// the tasks it paid for without their poll tokens. A request with no credential is answered 402 with a
// fresh sign-in challenge, which x402 clients sign and send back in SIGN-IN-WITH-X.
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { X402Payments } from '../../billing/x402/payments.js';
import { SIGN_IN_WITH_X } from '../../billing/x402/siwx.js';
import { HEADER, encodeBase64Json, type PaymentRequired as PaymentRequiredObject } from '../../billing/x402/wire.js';
import type { Engine } from '../../engine/engine.js';
import { toTaskView } from '../../engine/task-view.js';
import { Forbidden, InvalidInput, PaymentRequired, Unauthorized } from '../../errors.js';
import type { Payer, TaskRow } from '../../store/port.js';
import { readCredential } from '../auth.js';
import { applyRateLimit, type RateLimiter } from '../rate-limit.js';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').default(20),
  before: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time (next_before of the previous page)' }).optional(),
});

export interface WalletTaskDeps {
  engine: Engine;
  x402: X402Payments;
  publicUrl: string;
  ipLimiter: RateLimiter;
}

/** Mounted at /v1/tasks: GET / lists the caller's tasks, newest first. */
export function walletTaskRoutes(d: WalletTaskDeps): Router {
  const r = Router();
  r.get('/', async (req: Request, res: Response) => {
    applyRateLimit(d.ipLimiter, `ip:${req.ip ?? 'unknown'}`, res);
    const q = listQuery.safeParse(req.query);
    if (!q.success) {
      const issue = q.error.issues[0];
      throw new InvalidInput(`${issue?.path.join('.')}: ${issue?.message}`, String(issue?.path[0] ?? 'query'));
    }
    const payer = await payerOf(req, d);
    const before = q.data.before ? Date.parse(q.data.before) : undefined;
    const rows = await d.engine.listByPayer(payer, q.data.limit, before);
    const last = rows[rows.length - 1];
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      ...(payer.kind === 'x402' ? { wallet: payer.id } : {}),
      tasks: rows.map(toTaskView),
      count: rows.length,
      next_before: rows.length === q.data.limit && last ? new Date(last.createdAt).toISOString() : null,
    });
  });
  return r;
}

async function payerOf(req: Request, d: WalletTaskDeps): Promise<Payer> {
  const signIn = req.get(SIGN_IN_WITH_X);
  if (signIn) return { kind: 'x402', id: await d.x402.signIn.verify(signIn) };
  const credential = await readCredential(req, d.engine.store);
  if (credential.kind === 'key') return { kind: 'key', id: credential.key.id };
  if (credential.kind === 'poll-token') throw new Unauthorized('A poll token reads only its own task; list tasks by signing in with your wallet or with the API key.', 'WRONG_CREDENTIAL');
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
