// One logger, to stderr only: stdout belongs to the protocol (MCP stdio). Secrets are redacted.
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: Record<string, unknown>): Logger;
}

const SECRET_PATTERNS: [RegExp, string][] = [
  [/\bsk_(live|test)_[A-Za-z0-9_-]+/g, 'sk_$1_[redacted]'],
  [/\bpt_[A-Za-z0-9._-]+/g, 'pt_[redacted]'],
  [/\b(lk)_[A-Za-z0-9_-]{16,}/g, '$1_[redacted]'],
];
const SECRET_KEYS = /^(authorization|payment-signature|x-payment|x-api-key|password|secret|api_key|key)$/i;

export function redact(value: unknown): unknown {
  if (typeof value === 'string') {
    return SECRET_PATTERNS.reduce((s, [re, rep]) => s.replace(re, rep), value);
  }
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Error) return { name: value.name, message: redact(value.message), stack: redact(value.stack) };
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEYS.test(k) ? '[redacted]' : redact(v)]));
  }
  return value;
}

export function createLogger(
  level: LogLevel = 'info',
  scope: Record<string, unknown> = {},
  write: (line: string) => void = (l) => process.stderr.write(l),
): Logger {
  const min = ORDER[level];
  const emit = (lvl: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < min) return;
    const entry = { time: new Date().toISOString(), level: lvl, msg: redact(msg), ...scope, ...(fields ? (redact(fields) as object) : {}) };
    write(`${JSON.stringify(entry)}\n`);
  };
  return {
    debug: (m, f) => emit('debug', m, f),
    info: (m, f) => emit('info', m, f),
    warn: (m, f) => emit('warn', m, f),
    error: (m, f) => emit('error', m, f),
    child: (s) => createLogger(level, { ...scope, ...s }, write),
  };
}

export const silentLogger: Logger = createLogger('silent');
