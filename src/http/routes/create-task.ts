// Creating a task from a REST request: credential, validation, payment or charge, insert, answer 202.
// Shared by the Express route (tasks.ts) and the fast lane (fast-lane.ts), which reach it with the same
// request and parsed body, so both answer alike.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine, SubmitOptions } from '../../engine/engine.js';
import { PaymentRequired, Unauthorized } from '../../errors.js';
import { parseIdempotencyKey } from '../../idempotency.js';
import { microsToUsd } from '../../registry/registry.js';
import type { PollTokens } from '../../auth/poll-token.js';
import type { PaymentGate } from '../../billing/payment-gate.js';
import type { ApiKeyCache } from '../../web/api-key-cache.js';
import { readCredential } from '../../web/credential.js';
import { flatHeaders, headerValue } from '../../web/headers.js';
import { applyRateLimit, type Limiter } from '../../web/rate-limit.js';
import { sendJson } from '../../web/send-json.js';
import { netGuardService } from '../../net/guard.js';
import { needsApiKey, parseWebhookOptions, takeWebhookOptions, topicOfTool } from '../../webhooks/options.js';

export interface CreateTaskDeps {
  engine: Engine;
  pollTokens: PollTokens;
  keyLimiter: Limiter;
  paymentGate: PaymentGate | undefined;
  publicUrl: string;
  /** Key rows trusted for up to a second (see api-key-cache.ts). */
  keys: ApiKeyCache;
}

/**
 * `readBody` is called only once the credential could pay: an unknown, revoked or wrong credential is
 * refused from the headers (401) before the body (up to BODY_LIMIT_BYTES) is read. With no credential the
 * body is read so that bad input is answered (400) before an x402 client is asked to pay.
 */
export async function createTaskFromRequest(
  d: CreateTaskDeps,
  toolName: string,
  readBody: () => Promise<unknown>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { headers } = req;
  d.engine.registry.get(toolName);
  const credential = await readCredential(req, d.engine.store, d.keys);
  if (credential.kind === 'poll-token')
    throw new Unauthorized('A poll token only reads its task; create tasks with an API key or an x402 payment.', 'WRONG_CREDENTIAL');
  if (credential.kind === 'bearer') throw new Unauthorized('Unrecognised bearer token: API keys start with sk_.', 'INVALID_API_KEY');
  if (credential.kind === 'key') await applyRateLimit(d.keyLimiter, `key:${credential.key.id}`, res);
  const { input: body, options: webhookOptions } = takeWebhookOptions(await readBody());
  // Unknown tool (404) and bad input (400) are answered before anyone is asked to pay; the tool's precheck
  // (403 for a private target) only once the caller can pay, so it is no free oracle (engine.validate).
  const input = await d.engine.validate(toolName, body ?? {}, credential.kind === 'key' ? { chargeKeyId: credential.key.id } : { precheck: false });
  const webhook = parseWebhookOptions(webhookOptions, topicOfTool(toolName), await d.engine.scope.use(netGuardService));
  if (webhook && credential.kind !== 'key') throw needsApiKey();
  const idempotencyKey = parseIdempotencyKey(headerValue(headers, 'idempotency-key'));
  const resourceUrl = `${d.publicUrl}/v1/tools/${toolName}/tasks`;

  let opts: SubmitOptions;
  if (credential.kind === 'key') {
    opts = { payer: { kind: 'key', id: credential.key.id }, chargeKeyId: credential.key.id };
  } else {
    const gate = d.paymentGate;
    // What this input costs paid once (site.page with render: true costs more; a crawl's pages are included).
    const tool = d.engine.registry.pricedFor(toolName, input);
    const paid = gate?.headerNames.some((h) => headerValue(headers, h) !== undefined);
    if (gate && paid) {
      const verified = await gate.verify(tool, flatHeaders(headers), resourceUrl);
      opts = { payer: verified.payer, nonce: verified.nonce, payment: verified.payment };
      // Verified, not settled: a refused target costs nothing (no task, the authorization lapses).
      await d.engine.precheck(toolName, input);
    } else {
      const reqs = gate?.requirements(tool, resourceUrl);
      throw new PaymentRequired(
        `Payment required: ${toolName} costs ${tool.price} USD. Send "Authorization: Bearer sk_…" with a prepaid API key` +
          (gate ? ', or pay per request with x402 (see accepts).' : '. (x402 payments are not enabled on this server.)'),
        'PAYMENT_REQUIRED',
        {
          price_usd: tool.price,
          ways_to_pay: {
            api_key: { header: 'Authorization: Bearer sk_live_…', how: 'Ask the operator for a key (agent-utility keys create).' },
            x402: gate ? { header: 'PAYMENT-SIGNATURE', how: 'Sign one of the accepts[] below with your wallet and repeat the request.' } : null,
          },
          ...(reqs?.body ?? {}),
        },
        reqs?.headers ?? {},
      );
    }
  }
  if (idempotencyKey !== undefined) opts.idempotencyKey = idempotencyKey;
  if (webhook) opts.webhook = webhook;
  const { task, replayed } = await d.engine.submitValidated(toolName, input, opts);
  const pollUrl = `/v1/tasks/${task.id}`;
  res.setHeader('Location', pollUrl);
  if (replayed) res.setHeader('Idempotent-Replayed', 'true');
  sendJson(res, 202, {
    task_id: task.id,
    poll_token: await d.pollTokens.issue(task.id),
    status: task.status,
    poll_url: pollUrl,
    price_usd: microsToUsd(task.priceMicros),
  });
}
