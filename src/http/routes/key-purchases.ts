// Self-serve API keys paid with x402: POST /v1/keys buys a key with {"usd": "5"}, POST
// /v1/keys/current/credits tops up the Bearer key, GET /v1/keys lists what a signed-in wallet bought.
// Credit is granted only after the transfer settled on chain (docs/payments.md, "Buying an API key").
import express, { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { generateApiKey } from '../../auth/api-key.js';
import { API_KEY_PREFIX } from '../../billing/api-keys.js';
import type { X402Payments } from '../../billing/x402/payments.js';
import type { PaymentRecord } from '../../billing/x402/payment-record.js';
import { paymentRequiredAnswer, requirementFor } from '../../billing/x402/requirements.js';
import { settleNow, SettlementRefused } from '../../billing/x402/settle-now.js';
import { SIGN_IN_WITH_X } from '../../billing/x402/siwx.js';
import { PaymentRefusal, verifyPayment } from '../../billing/x402/verify.js';
import { decodePaymentHeader } from '../../billing/x402/wire.js';
import type { Config } from '../../config.js';
import type { Engine } from '../../engine/engine.js';
import { AppError, InvalidInput, PaymentRequired, ServiceUnavailable, Unauthorized } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Logger } from '../../logger.js';
import type { AnyTool } from '../../registry/define-tool.js';
import { microsToUsd, usdToMicros } from '../../registry/registry.js';
import type { ApiKeyRow } from '../../store/port.js';
import { readCredential } from '../../web/credential.js';
import { requireJson } from '../../web/errors.js';

/** A purchase body is `{"usd": "5"}`: a kilobyte is plenty, and nothing larger is read. */
const PURCHASE_BODY_LIMIT = '1kb';

const body = z.object({ usd: z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, 'must be a USD amount such as "5" or "0.25"') });

export interface KeyPurchaseDeps {
  engine: Engine;
  x402: X402Payments;
  config: Config;
  log: Logger;
}

/** What the verifier checks a payment against: the amount asked for, in place of a tool's price. */
function purchaseItem(usd: string, what: string): AnyTool {
  return { name: 'keys.credits', title: 'API key credits', description: what, price: usd, timeoutMs: 60_000 } as unknown as AnyTool;
}

export function keyPurchaseRoutes(d: KeyPurchaseDeps): Router {
  const r = Router();
  const log = d.log.child({ component: 'x402-key-purchases' });
  const { keyMinMicros, keyMaxMicros } = d.config.x402;

  const smallJson = express.json({ limit: PURCHASE_BODY_LIMIT, type: ['application/json', 'application/*+json'], strict: false });
  /** Reads the body once the headers were checked: a payment header that cannot be read, or a wrong key, costs no body. */
  const readBody = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) => smallJson(req, res, (err?: unknown) => (err ? reject(err as Error) : resolve())));
  const checkPaymentHeader = (req: Request): void => {
    const header = req.get('payment-signature') ?? req.get('x-payment');
    if (header === undefined) return;
    try {
      decodePaymentHeader(header);
    } catch (err) {
      // The verifier's wording, answered before the body is read.
      throw new PaymentRequired(
        `The payment header could not be read: ${(err as Error).message}. Send the base64 JSON PaymentPayload the x402 client builds.`,
        'PAYMENT_MALFORMED',
      );
    }
  };

  const amountOf = (req: Request): { usd: string; micros: number } => {
    const parsed = body.safeParse(req.body ?? {});
    if (!parsed.success) throw new InvalidInput(`usd: ${parsed.error.issues[0]?.message ?? 'is required'}`, 'usd');
    const micros = usdToMicros(parsed.data.usd);
    if (micros < keyMinMicros || micros > keyMaxMicros) {
      throw new InvalidInput(`usd: must be between ${microsToUsd(keyMinMicros)} and ${microsToUsd(keyMaxMicros)}.`, 'usd');
    }
    return { usd: microsToUsd(micros), micros };
  };

  /** Verifies the payment for exactly `usd`, or answers 402 asking for it. */
  const paid = async (req: Request, item: AnyTool, url: string): Promise<PaymentRecord> => {
    const header = req.get('payment-signature') ?? req.get('x-payment');
    const ask = (message: string, code: string, reason?: string): never => {
      const answer = paymentRequiredAnswer({
        x402Version: 2,
        ...(reason ? { error: reason } : {}),
        resource: { url, description: item.description, mimeType: 'application/json' },
        accepts: [requirementFor(item, d.x402.settings)],
      });
      throw new PaymentRequired(message, code, { price_usd: item.price, ...answer.body }, answer.headers);
    };
    if (!header) return ask(`Pay ${item.price} USD with x402 (PAYMENT-SIGNATURE) to get the credits.`, 'PAYMENT_REQUIRED');
    try {
      return await verifyPayment(item, header, url, { settings: d.x402.settings, chain: d.x402.chain, facilitator: d.x402.facilitator });
    } catch (err) {
      if (!(err instanceof PaymentRefusal)) throw err;
      return ask(err.message, err.code, err.reason);
    }
  };

  /**
   * Reserves the nonce with a pending purchase, settles, then grants the credit once. A settlement known not
   * to have happened marks the purchase unpaid; any other error (the transfer may be mined: a receipt wait
   * that timed out, a lost RPC answer, a crash) leaves it pending with its transaction hash, and
   * PurchaseReconciler credits it once the chain shows the transfer (docs/payments.md, "What a crash costs").
   */
  const buy = async (
    record: PaymentRecord,
    kind: 'create' | 'topup',
    keyId: string | null,
    micros: number,
    newKey?: { id: string; hash: string; prefix: string; label: string | null },
  ): Promise<{ kind: 'settled'; settled: { key: ApiKeyRow }; transaction: string } | { kind: 'pending'; id: string; transaction: string | null }> => {
    const store = d.engine.store;
    const id = newId('kp', 6);
    const nonce = { network: record.network, asset: record.asset, payer: record.payer, nonce: record.authorization.nonce };
    // Where the reconciler's search for the transfer starts: a block read before it can be submitted.
    const fromBlock = d.x402.chain ? await d.x402.chain.blockNumber().catch(() => undefined) : undefined;
    let payment: Record<string, unknown> = {
      ...record,
      ...(fromBlock !== undefined ? { from_block: fromBlock.toString() } : {}),
      // The key a recovered 'create' purchase makes: the one whose secret this answer (or a pending one) gave.
      ...(newKey ? { new_key: newKey } : {}),
    };
    const reserved = await store.reserveKeyPurchase({ id, kind, keyId, wallet: record.payer, micros, payment, nonce, now: Date.now() });
    if (reserved.kind === 'nonce_used') throw new PaymentRequired('This payment authorization was already used; sign a new one.', 'PAYMENT_REPLAYED');
    // The key to top up may have been revoked while the payment was verified: then nothing is submitted.
    if (keyId !== null && (await store.findKey(keyId))?.revokedAt !== null) {
      await store.markKeyPurchaseUnpaid(id, { ...payment, status: 'unpaid', reason: 'The key was revoked before the payment was settled.' });
      throw new Unauthorized('This API key was revoked; the payment was not collected.', 'API_KEY_REVOKED');
    }
    let transaction: string;
    try {
      transaction = await settleNow(record, d.x402, async (tx) => {
        payment = { ...payment, transaction: tx };
        await store.noteKeyPurchasePayment(id, payment);
      });
    } catch (err) {
      if (err instanceof SettlementRefused) {
        await store.markKeyPurchaseUnpaid(id, { ...payment, status: 'unpaid', reason: err.message });
        throw new ServiceUnavailable('The payment could not be settled, so no credit was granted; sign a new payment and try again.', 'SETTLEMENT_FAILED');
      }
      log.warn('key purchase left pending: its settlement did not finish', { purchase: id, transaction: payment.transaction ?? null, err });
      return { kind: 'pending', id, transaction: typeof payment.transaction === 'string' ? payment.transaction : null };
    }
    const settled = await store.settleKeyPurchase(id, {
      payment: { ...payment, status: 'settled', transaction },
      now: Date.now(),
      ...(newKey ? { newKey } : {}),
    });
    if (!settled) throw new ServiceUnavailable('The purchase was settled elsewhere; list your keys by signing in with your wallet.', 'PURCHASE_CONFLICT');
    if (!settled.credited) {
      // Revoked after the transfer and before the credit: the money is collected, the key is dead. Said as
      // such, with what the payer needs to claim it back; the purchase is on record with refund_due.
      log.warn('top-up of a key revoked meanwhile: payment collected, nothing credited, refund due', { purchase: id, key: keyId, transaction });
      throw new AppError(
        409,
        'API_KEY_REVOKED_REFUND_DUE',
        `This API key was revoked while the payment settled, so nothing was credited to it. The payment was collected (transaction ${transaction}) and is recorded as owed back to you as purchase ${id}: ask the operator for a refund.`,
        { extra: { purchase_id: id, transaction, refund_due_usd: microsToUsd(micros), payer: record.payer } },
      );
    }
    return { kind: 'settled', settled, transaction };
  };

  /** 202 for a purchase whose settlement did not finish: the credit comes once the chain shows the transfer. */
  const pendingAnswer = (res: Response, p: { id: string; transaction: string | null }, extra: Record<string, unknown>) => {
    res.setHeader('Cache-Control', 'no-store');
    res.status(202).json({
      status: 'pending',
      purchase_id: p.id,
      ...extra,
      transaction: p.transaction,
      message:
        'The payment was submitted but its confirmation was not seen. The credit is granted once the chain shows the transfer ' +
        '(at the latest a few minutes after the authorization expires); if it never arrives, the purchase is marked unpaid and nothing is charged.',
    });
  };

  r.post('/', requireJson, async (req: Request, res: Response) => {
    checkPaymentHeader(req);
    await readBody(req, res);
    const { usd, micros } = amountOf(req);
    const url = `${d.config.publicUrl}/v1/keys`;
    const record = await paid(req, purchaseItem(usd, `A new API key with ${usd} USD of credits.`), url);
    const { key: secret, hash, prefix } = generateApiKey(API_KEY_PREFIX);
    const newKey = { id: newId('key', 6), hash, prefix, label: `bought by ${record.payer}` };
    const bought = await buy(record, 'create', null, micros, newKey);
    if (bought.kind === 'pending') return pendingAnswer(res, bought, { api_key: secret, key_id: newKey.id, payer: record.payer });
    const { settled, transaction } = bought;
    res.setHeader('Cache-Control', 'no-store');
    res.status(201).json({ api_key: secret, key_id: settled.key.id, credits_usd: microsToUsd(settled.key.balanceMicros), payer: record.payer, transaction });
  });

  r.post('/current/credits', requireJson, async (req: Request, res: Response) => {
    const credential = await readCredential(req, d.engine.store);
    if (credential.kind !== 'key') throw new Unauthorized('Send the API key to top up as "Authorization: Bearer sk_…".', 'MISSING_CREDENTIAL');
    checkPaymentHeader(req);
    await readBody(req, res);
    const { usd, micros } = amountOf(req);
    const url = `${d.config.publicUrl}/v1/keys/current/credits`;
    const record = await paid(req, purchaseItem(usd, `${usd} USD of credits for key ${credential.key.prefix}….`), url);
    const bought = await buy(record, 'topup', credential.key.id, micros);
    if (bought.kind === 'pending') return pendingAnswer(res, bought, { key_id: credential.key.id, payer: record.payer });
    const { settled, transaction } = bought;
    res.setHeader('Cache-Control', 'no-store');
    res.json({ key_id: settled.key.id, added_usd: usd, credits_usd: microsToUsd(settled.key.balanceMicros), payer: record.payer, transaction });
  });

  r.get('/', async (req: Request, res: Response) => {
    const header = req.get(SIGN_IN_WITH_X);
    if (!header) throw new Unauthorized('Sign in with the wallet that paid (SIGN-IN-WITH-X) to list the keys it bought.', 'SIGN_IN_REQUIRED');
    const wallet = await d.x402.signIn.verify(header);
    const purchases = await d.engine.store.listKeyPurchases(wallet, 100);
    res.setHeader('Cache-Control', 'no-store');
    res.json({
      wallet,
      purchases: purchases.map((p) => ({
        kind: p.kind,
        key_id: p.keyId,
        usd: microsToUsd(p.micros),
        status: p.status,
        // A settled top-up whose key was revoked before the credit: paid, nothing credited, owed back.
        ...(p.payment.refund_due === true ? { refund_due: true } : {}),
        created_at: new Date(p.createdAt).toISOString(),
      })),
    });
  });
  return r;
}
