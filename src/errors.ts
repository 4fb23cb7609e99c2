// One small error hierarchy. Each class carries its HTTP status and a stable code; the HTTP and MCP
// front doors each map it once. Anything that is not an AppError is a real fault: logged in full,
// answered generically.

export interface ErrorBody {
  error: string;
  code: string;
  field?: string;
  retry: boolean;
  [extra: string]: unknown;
}

export class AppError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;
  readonly retry: boolean;
  readonly headers: Record<string, string>;
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    code: string,
    message: string,
    opts: { field?: string; retry?: boolean; headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.field = opts.field;
    this.retry = opts.retry ?? false;
    this.headers = opts.headers ?? {};
    this.extra = opts.extra ?? {};
  }

  toBody(): ErrorBody {
    return {
      ...this.extra,
      error: this.message,
      code: this.code,
      ...(this.field !== undefined ? { field: this.field } : {}),
      retry: this.retry,
    };
  }
}

export class InvalidInput extends AppError {
  constructor(message: string, field?: string, code = 'INVALID_INPUT') {
    super(400, code, message, field !== undefined ? { field } : {});
  }
}

export class Unauthorized extends AppError {
  constructor(message: string, code = 'UNAUTHORIZED', headers: Record<string, string> = {}) {
    super(401, code, message, { headers: { 'WWW-Authenticate': 'Bearer', ...headers } });
  }
}

export class PaymentRequired extends AppError {
  constructor(message: string, code = 'PAYMENT_REQUIRED', extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    super(402, code, message, { extra, headers });
  }
}

export class Forbidden extends AppError {
  constructor(message: string, code = 'FORBIDDEN', field?: string) {
    super(403, code, message, field !== undefined ? { field } : {});
  }
}

export class NotFound extends AppError {
  constructor(message: string, code = 'NOT_FOUND') {
    super(404, code, message);
  }
}

export class Gone extends AppError {
  constructor(message: string, code = 'GONE') {
    super(410, code, message);
  }
}

export class Unprocessable extends AppError {
  constructor(message: string, code = 'UNPROCESSABLE', field?: string) {
    super(422, code, message, field !== undefined ? { field } : {});
  }
}

export class PayloadTooLarge extends AppError {
  constructor(message: string) {
    super(413, 'PAYLOAD_TOO_LARGE', message);
  }
}

export class UnsupportedMediaType extends AppError {
  constructor(message: string) {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', message);
  }
}

export class RateLimited extends AppError {
  constructor(message: string, retryAfterSeconds: number, code = 'RATE_LIMITED') {
    super(429, code, message, { retry: true, headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } });
  }
}

export class ServiceUnavailable extends AppError {
  constructor(message: string, code = 'UNAVAILABLE') {
    super(503, code, message, { retry: true });
  }
}

/**
 * The database cannot answer right now (unreachable, restarting, out of connections, out of disk): the
 * request did nothing, and the same request later will work. `reason` says which, for operators.
 */
export class StoreUnavailable extends AppError {
  constructor(
    message: string,
    readonly reason: 'unreachable' | 'too_many_connections' | 'disk_full' | 'busy' | 'io_error',
    retryAfterSeconds = 5,
    options: { cause?: unknown } = {},
  ) {
    super(503, 'STORE_UNAVAILABLE', message, { retry: true, headers: { 'Retry-After': String(retryAfterSeconds) } });
    if (options.cause !== undefined) this.cause = options.cause;
  }
}

/**
 * A tool's failure. `kind` decides what the engine does:
 * - `transient`: worth retrying (bounded, with backoff), e.g. an upstream outage; refunded if it finally fails.
 * - `permanent`: retrying will not help, and it is not the caller's fault (refunded).
 * - `input`: the input itself cannot be served (charged, since the work was done as asked).
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly kind: 'transient' | 'permanent' | 'input' = 'permanent',
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}
