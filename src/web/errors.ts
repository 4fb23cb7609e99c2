// The one mapping from errors to HTTP answers: AppError → its status and body; body-parser failures →
// 400/413/415; anything else → a logged 500 that reveals nothing.
import type { NextFunction, Request, Response } from 'express';
import type { ServerResponse } from 'node:http';
import { AppError, InvalidInput, NotFound, PayloadTooLarge, UnsupportedMediaType } from '../errors.js';
import type { Logger } from '../logger.js';
import { asStoreFault } from '../db/store-faults.js';
import { sendJson } from './send-json.js';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
  limit?: number;
}

export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  // A database outage met outside the store's own statements (the artifact store's pool, say).
  const fault = asStoreFault(err);
  if (fault instanceof AppError) return fault;
  const e = err as BodyParserError;
  switch (e?.type) {
    case 'entity.parse.failed':
      return new InvalidInput(
        `The request body is not valid JSON: ${e.message.replace(/^Unexpected token.*?in JSON/, 'unexpected token in JSON')}`,
        undefined,
        'INVALID_JSON',
      );
    case 'entity.too.large':
      return new PayloadTooLarge(`The request body is larger than the ${e.limit ?? ''} byte limit.`.replace('  ', ' '));
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new UnsupportedMediaType('Unsupported body encoding; send UTF-8 JSON.');
    case 'request.aborted':
      return new InvalidInput('The request body was cut off.', undefined, 'BODY_ABORTED');
  }
  if (e?.status === 400 || e?.status === 413 || e?.status === 415) {
    return new AppError(e.status, 'BAD_REQUEST', e.message);
  }
  return undefined;
}

export function errorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => sendError(res, err, log, req.method, req.path);
}

/** Answers an error on a plain Node response too (the fast lane, fast-lane.ts, answers without Express). */
export function sendError(res: ServerResponse, err: unknown, log: Logger, method: string | undefined, path: string): void {
  const app = toAppError(err);
  if (res.headersSent) {
    res.end();
    return;
  }
  if (app) {
    for (const [k, v] of Object.entries(app.headers)) res.setHeader(k, v);
    sendJson(res, app.status, app.toBody());
    return;
  }
  log.error('unhandled error', { err, method, path });
  sendJson(res, 500, { error: 'Internal server error; it was logged. Retry later.', code: 'INTERNAL', retry: true });
}

export function notFoundHandler(req: Request, _res: Response, next: NextFunction): void {
  next(new NotFound(`No route for ${req.method} ${req.path}. See /openapi.json.`, 'NO_ROUTE'));
}

/** POST bodies must be JSON (an empty body counts as {}). */
export function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const length = Number(req.get('content-length') ?? '0');
  const hasBody = length > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody && !req.is(['application/json', 'application/*+json'])) {
    next(new UnsupportedMediaType(`Content-Type must be application/json (got ${req.get('content-type') ?? 'none'}).`));
    return;
  }
  next();
}
