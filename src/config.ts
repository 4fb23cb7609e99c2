// The only module that reads the environment. Everything else receives a Config object,
// so tests build configs directly with loadConfig({ ...overrides }).
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseCidrList } from './net/address-policy.js';
import { usdToMicros } from './registry/usd.js';

const bool = z.enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off']).transform((v) => ['1', 'true', 'yes', 'on'].includes(v));

const csv = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

const isCidrList = (list: string[]): boolean => {
  try {
    parseCidrList(list);
    return true;
  } catch {
    return false;
  }
};

/** Which peers may set X-Forwarded-For: none, the nearest N hops, or named addresses. */
export type TrustProxy = false | number | string[];

/** Express's names for address ranges, accepted next to IPs and CIDRs. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: a hop count or the proxies' addresses, never "trust everyone": with that, Express takes the
 * left-most X-Forwarded-For entry, which the client writes, and any caller could pose as localhost or as a
 * fresh address for every request. Returns the setting, or a sentence saying what is wrong.
 */
function parseTrustProxy(raw: string): TrustProxy | string {
  const v = raw.trim().toLowerCase();
  if (['false', 'no', 'off', '0'].includes(v)) return false;
  if (['true', 'yes', 'on', 'all', '*'].includes(v)) {
    return `"${raw}" would trust any client-written X-Forwarded-For; give the number of proxies in front of the service (e.g. 1) or their addresses (e.g. loopback or 10.0.0.0/8, comma-separated)`;
  }
  if (/^\d+$/.test(v)) return Number(v) === 0 ? false : Number(v);
  const list = v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const addresses = list.filter((x) => !PROXY_RANGE_NAMES.includes(x));
  if (list.length === 0 || !isCidrList(addresses)) {
    return 'must be a hop count (1), or proxy addresses: loopback, linklocal, uniquelocal, IPs or CIDRs, comma-separated';
  }
  return list;
}

const intFrom = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** A positive USD amount with at most 6 decimals (micro-USD), e.g. "5" or "0.25". */
const usdAmount = z.string().regex(/^\d{1,9}(\.\d{1,6})?$/, 'must be a USD amount such as 5 or 0.25 (at most 6 decimals)');

const envSchema = z.object({
  PORT: intFrom(0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a lower-case identifier (letters, digits, _)')
    .default('public'),
  DATABASE_POOL_SIZE: intFrom(1, 1000).default(10),
  SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_TOKEN: z.string().min(32, 'must be at least 32 characters (e.g. the output of `openssl rand -hex 32`)').optional(),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),

  // Engine
  WORKERS: bool.default(true),
  WORKER_CONCURRENCY: intFrom(1, 1000).default(16),
  WORKER_NICE: intFrom(0, 19).default(0),
  TASK_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(7),
  TASK_MAX_ATTEMPTS: intFrom(1, 10).default(3),
  LEASE_MS: intFrom(1000, 600_000).default(30_000),
  WEBHOOK_MAX_ATTEMPTS: intFrom(1, 50).default(10),
  WEBHOOK_BACKOFF_MS: intFrom(1, 3_600_000).default(10_000),
  WEBHOOK_MAX_BACKOFF_MS: intFrom(1, 86_400_000).default(3_600_000),
  WEBHOOK_TIMEOUT_MS: intFrom(100, 120_000).default(10_000),
  WEBHOOK_LEASE_MS: intFrom(100, 3_600_000).default(60_000),
  WEBHOOK_SECRET_GRACE_HOURS: intFrom(0, 720).default(24),
  POLL_INTERVAL_MS: intFrom(10, 60_000).default(500),
  SHUTDOWN_GRACE_MS: intFrom(0, 600_000).default(10_000),

  // HTTP limits
  BODY_LIMIT_BYTES: intFrom(1024, 50 * 1024 * 1024).default(2 * 1024 * 1024),
  HTTP_REQUEST_TIMEOUT_MS: intFrom(100, 3_600_000).default(120_000),
  HTTP_HEADERS_TIMEOUT_MS: intFrom(100, 3_600_000).default(30_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: intFrom(100, 3_600_000).default(65_000),
  HTTP_MAX_CONNECTIONS: intFrom(0, 10_000_000).default(0),
  DISK_MIN_FREE_MB: intFrom(0, 10_000_000).default(256),
  AGENT_UTILITY_URL: z.string().url('must be a URL such as https://tools.example.com').optional(),
  AGENT_UTILITY_KEY: z.string().startsWith('sk_', 'must be an API key (sk_…)').optional(),
  BATCH_MAX_ITEMS: intFrom(1, 1_000_000).default(10_000),
  BATCH_BODY_LIMIT_BYTES: intFrom(1024, 500 * 1024 * 1024).default(20 * 1024 * 1024),
  RATE_LIMIT_PER_KEY: intFrom(0, 1_000_000).default(600),
  RATE_LIMIT_PER_IP: intFrom(0, 1_000_000).default(300),
  RATE_LIMIT_WINDOW_S: intFrom(1, 86_400).default(60),
  TRUST_PROXY: z
    .string()
    .transform((v, ctx) => {
      const r = parseTrustProxy(v);
      if (typeof r === 'string') {
        ctx.addIssue({ code: 'custom', message: r });
        return z.NEVER;
      }
      return r;
    })
    .default(false),

  // Network tools
  DNS_SERVERS: csv.optional(),
  SMTP_PROBE_PORT: intFrom(1, 65535).default(25),
  SMTP_HELO_NAME: z.string().min(1).optional(),
  SMTP_MAIL_FROM: z.string().min(3).optional(),
  SMTP_PROBE_TIMEOUT_MS: intFrom(500, 60_000).default(10_000),
  SMTP_PROBE_BUDGET_MS: intFrom(1000, 50_000).default(30_000),
  SMTP_GREYLIST_RETRY_MS: intFrom(0, 40_000).default(5_000),
  EMAIL_CACHE_TTL_S: intFrom(0, 86_400).default(600),
  SMTP_SESSIONS_PER_HOST: intFrom(1, 100).default(2),
  SMTP_RCPTS_PER_SESSION: intFrom(1, 100).default(20),
  HOST_CONCURRENCY: intFrom(1, 1000).default(4),
  NETWORK_ALLOWLIST: csv.refine(isCidrList, 'each entry must be an IP or CIDR such as 127.0.0.0/8 or fd00::/8').default([]),
  TLS_CA_FILE: z.string().min(1).optional(),

  // Browser
  CHROMIUM_PATH: z.string().min(1).optional(),
  BROWSER_CONCURRENCY: intFrom(1, 64).optional(),
  CHROMIUM_SANDBOX: z.enum(['auto', 'off', 'on']).default('auto'),
  CHROMIUM_SANDBOX_UID: intFrom(1, 2_147_483_647).default(65534),

  // Artifacts
  STORAGE_URL: z.url().optional(),
  ARTIFACT_STORE: z.enum(['local', 'postgres', 's3']).optional(),
  S3_BUCKET: z.string().min(3).optional(),
  S3_PREFIX: z.string().default('artifacts/'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PRESIGNED_DOWNLOADS: bool.default(false),

  // Lead service
  LEADS_PORT: intFrom(0, 65535).default(8081),
  LEADS_BASE_URL: z.url().optional(),
  LEADS_API_KEY: z.string().min(8).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  LEADS_PUBLIC_URL: z.url().optional(),
  LEADS_MAIL_FROM: z.string().min(3).optional(),

  // x402
  X402_PAY_TO: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
    .optional(),
  X402_NETWORK: z
    .string()
    .regex(/^eip155:\d+$/, 'must be a CAIP-2 id such as eip155:8453')
    .default('eip155:8453'),
  X402_ASSET: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte address')
    .optional(),
  X402_RPC_URL: z.url().optional(),
  X402_FACILITATOR_URL: z.url().optional(),
  X402_SETTLER_KEY: z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte private key')
    .optional(),
  // Self-serve API keys bought with x402 (POST /v1/keys): the amounts a purchase or top-up may have.
  X402_KEY_MIN_USD: usdAmount.default('1'),
  X402_KEY_MAX_USD: usdAmount.default('500'),

  // Location
  GEOCODER_URL: z.url().optional(),
  GEOCODER_KIND: z.enum(['nominatim', 'pelias', 'photon']).optional(),
  GEOIP_CITY_DB: z.string().min(1).optional(),
  PROXY_LIST_FILE: z.string().min(1).optional(),
  GEOCODER_MIN_INTERVAL_MS: intFrom(0, 60_000).default(1000),
  GEOCODER_USER_AGENT: z.string().min(3).optional(),

  // MCP
  MCP_TOOLS: csv.optional(),
  MCP_AUTH: z.enum(['required', 'localhost-off', 'off']).default('required'),
  MCP_API_KEY: z
    .string()
    .regex(/^sk_(live|test)_[A-Za-z0-9_-]{20,}$/, 'must be an API key (sk_live_…)')
    .optional(),
  MCP_INLINE_IMAGE_MAX_BYTES: intFrom(0, 20 * 1024 * 1024).default(1_000_000),
});

export type Env = z.input<typeof envSchema>;

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  /** True when PUBLIC_URL was set (stdio MCP then keeps it instead of its own loopback file server). */
  publicUrlExplicit?: boolean;
  /** True when publicUrl is a stdio session's own file server: its links stop working when the session ends. */
  sessionFileServer?: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL: schema holding every table, and connections per process (plus one for LISTEN). */
  database: { schema: string; poolSize: number };
  secret: string | undefined;
  /** Operator token for the console at /console; the console is off without it. */
  adminToken: string | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  engine: {
    workers: boolean;
    concurrency: number;
    /**
     * `agent-utility worker` lowers its own scheduling priority to this nice value (0 = unchanged): where
     * API nodes and workers share cores, task creation and polls then come before the tasks themselves.
     */
    nice: number;
    retentionMs: number;
    maxAttempts: number;
    leaseMs: number;
    pollIntervalMs: number;
    /** On SIGTERM, running tasks get this long to finish; the rest go back to the queue (or fail, with side effects). */
    shutdownGraceMs: number;
  };
  /** Webhook deliveries (docs/webhooks.md): attempts, backoff, per-request timeout, claim lease, old secret's grace. */
  webhooks: { maxAttempts: number; baseBackoffMs: number; maxBackoffMs: number; timeoutMs: number; leaseMs: number; secretGraceMs: number };
  /** The `call` and `batch` commands: a remote service and its key; unset = an embedded engine. */
  client: { url: string | undefined; key: string | undefined };
  /** /healthz answers "degraded" when DATA_DIR's file system has less free space than this (bytes; 0 = never). */
  diskMinFreeBytes: number;
  /** Batches: inputs per call, and the body limit for a batch upload (larger than one task's). */
  batch: { maxItems: number; bodyLimitBytes: number };
  http: {
    bodyLimitBytes: number;
    rateLimitPerKey: number;
    rateLimitPerIp: number;
    rateLimitWindowS: number;
    /** Express "trust proxy": false, a hop count, or proxy addresses (never true; see parseTrustProxy). */
    trustProxy: TrustProxy;
    /** Deadlines for a client's connection, and a cap on connections (src/web/http-server-limits.ts). */
    server: {
      /** The whole request (headers and body) must arrive within this; the answer may take longer. */
      requestTimeoutMs: number;
      /** The headers must arrive within this from the request's first byte. */
      headersTimeoutMs: number;
      /** An idle keep-alive connection is closed after this. */
      keepAliveTimeoutMs: number;
      /** Connections open at once; 0 = no cap. */
      maxConnections: number;
    };
  };
  net: {
    dnsServers: string[] | undefined;
    smtpProbePort: number;
    smtpHeloName: string;
    smtpMailFrom: string;
    /** email.verify: one mail server's session (connect to QUIT) must end within this. */
    smtpProbeTimeoutMs: number;
    /** email.verify: every SMTP attempt of one verification, retries included, ends within this. */
    smtpProbeBudgetMs: number;
    /** email.verify: pause before the one retry after a temporary (4xx, greylisting) answer. */
    smtpGreylistRetryMs: number;
    /** email.verify: how long MX and catch-all findings per domain are reused; 0 turns the cache off. */
    emailCacheTtlMs: number;
    /** email.verify: SMTP sessions open at once to one mail server address (politeness cap). */
    smtpSessionsPerHost: number;
    /** email.verify: recipients asked about in one session before it is closed. */
    smtpRcptsPerSession: number;
    /** dns.lookup and url.status: tasks running at once against one target domain or host. */
    hostConcurrency: number;
    allowlist: string[];
    /** PEM file of extra trusted CA certificates, added to Node's bundled roots for outbound TLS. */
    tlsCaFile: string | undefined;
  };
  browser: { chromiumPath: string | undefined; concurrency: number; sandbox: { setting: 'auto' | 'off' | 'on'; uid: number } };
  storageUrl: string | undefined;
  /** Where artifacts live: local disk (one machine), PostgreSQL or S3 (shared by every node). */
  artifacts: {
    store: 'local' | 'postgres' | 's3';
    s3: {
      bucket: string | undefined;
      prefix: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
      /** /files answers with a redirect to a presigned S3 URL instead of relaying the bytes. */
      presignedDownloads: boolean;
    };
  };
  leads: {
    port: number;
    baseUrl: string | undefined;
    apiKey: string | undefined;
    smtpUrl: string | undefined;
    publicUrl: string | undefined;
    mailFrom: string;
  };
  x402: {
    payTo: string | undefined;
    network: string;
    asset: string | undefined;
    rpcUrl: string | undefined;
    facilitatorUrl: string | undefined;
    settlerKey: string | undefined;
    /** Smallest and largest self-serve key purchase or top-up, micro-USD. */
    keyMinMicros: number;
    keyMaxMicros: number;
  };
  geo: {
    geocoderUrl: string | undefined;
    geocoderKind: 'nominatim' | 'pelias' | 'photon' | undefined;
    cityDb: string | undefined;
    /** CIDRs (one per line) that ip.geolocate reports as is_proxy. */
    proxyListFile: string | undefined;
    /** Minimum spacing of requests to one remote geocoder host (1 req/s for public Nominatim). */
    geocoderMinIntervalMs: number;
    geocoderUserAgent: string | undefined;
  };
  mcp: {
    tools: string[] | undefined;
    auth: 'required' | 'localhost-off' | 'off';
    /** stdio calls are charged to this key when set; otherwise they are local and free. */
    apiKey: string | undefined;
    /** Screenshots up to this size are also returned inline as an MCP image; 0 turns that off. */
    inlineImageMaxBytes: number;
    /** `agent-utility mcp` data dir: DATA_DIR if set, else ~/.agent-utility (desktop clients start it anywhere). */
    stdioDataDir: string;
  };
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads configuration from `env` (process.env by default); fails listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "unset", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([k, v]) => k in envSchema.shape && v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  // Artifacts default to the shared database when there is one, so every node can serve every file.
  const artifactStore = e.ARTIFACT_STORE ?? (e.DATABASE_URL ? 'postgres' : 'local');
  const artifactProblems = [
    ...(artifactStore === 's3' && !e.S3_BUCKET ? ['S3_BUCKET: is required when ARTIFACT_STORE=s3'] : []),
    ...(artifactStore === 'postgres' && !e.DATABASE_URL ? ['ARTIFACT_STORE: postgres needs DATABASE_URL'] : []),
    ...(!!e.S3_ACCESS_KEY_ID !== !!e.S3_SECRET_ACCESS_KEY ? ['S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both or neither'] : []),
    ...(usdToMicros(e.X402_KEY_MIN_USD) <= 0 ? ['X402_KEY_MIN_USD: must be more than 0'] : []),
    ...(usdToMicros(e.X402_KEY_MIN_USD) > usdToMicros(e.X402_KEY_MAX_USD) ? ['X402_KEY_MAX_USD: must be at least X402_KEY_MIN_USD'] : []),
    ...(e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS ? ['HTTP_HEADERS_TIMEOUT_MS: must be at most HTTP_REQUEST_TIMEOUT_MS'] : []),
  ];
  if (artifactProblems.length > 0) throw new ConfigError(artifactProblems);
  const hostForUrl = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  const hostname = os.hostname() || 'localhost';
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrlExplicit: e.PUBLIC_URL !== undefined,
    publicUrl: (e.PUBLIC_URL ?? `http://${hostForUrl.includes(':') ? `[${hostForUrl}]` : hostForUrl}:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    database: { schema: e.DATABASE_SCHEMA, poolSize: e.DATABASE_POOL_SIZE },
    secret: e.SECRET,
    adminToken: e.ADMIN_TOKEN,
    logLevel: e.LOG_LEVEL,
    engine: {
      workers: e.WORKERS,
      concurrency: e.WORKER_CONCURRENCY,
      nice: e.WORKER_NICE,
      retentionMs: Math.round(e.TASK_RETENTION_DAYS * 86_400_000),
      maxAttempts: e.TASK_MAX_ATTEMPTS,
      leaseMs: e.LEASE_MS,
      pollIntervalMs: e.POLL_INTERVAL_MS,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    },
    webhooks: {
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      baseBackoffMs: e.WEBHOOK_BACKOFF_MS,
      maxBackoffMs: e.WEBHOOK_MAX_BACKOFF_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      leaseMs: e.WEBHOOK_LEASE_MS,
      secretGraceMs: e.WEBHOOK_SECRET_GRACE_HOURS * 3_600_000,
    },
    client: { url: e.AGENT_UTILITY_URL?.replace(/\/+$/, ''), key: e.AGENT_UTILITY_KEY },
    diskMinFreeBytes: e.DISK_MIN_FREE_MB * 1024 * 1024,
    batch: { maxItems: e.BATCH_MAX_ITEMS, bodyLimitBytes: e.BATCH_BODY_LIMIT_BYTES },
    http: {
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      rateLimitPerKey: e.RATE_LIMIT_PER_KEY,
      rateLimitPerIp: e.RATE_LIMIT_PER_IP,
      rateLimitWindowS: e.RATE_LIMIT_WINDOW_S,
      trustProxy: e.TRUST_PROXY,
      server: {
        requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
        headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
        keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
        maxConnections: e.HTTP_MAX_CONNECTIONS,
      },
    },
    net: {
      dnsServers: e.DNS_SERVERS,
      smtpProbePort: e.SMTP_PROBE_PORT,
      smtpHeloName: e.SMTP_HELO_NAME ?? hostname,
      smtpMailFrom: e.SMTP_MAIL_FROM ?? `verify@${e.SMTP_HELO_NAME ?? hostname}`,
      smtpProbeTimeoutMs: e.SMTP_PROBE_TIMEOUT_MS,
      smtpProbeBudgetMs: e.SMTP_PROBE_BUDGET_MS,
      smtpGreylistRetryMs: e.SMTP_GREYLIST_RETRY_MS,
      emailCacheTtlMs: e.EMAIL_CACHE_TTL_S * 1000,
      smtpSessionsPerHost: e.SMTP_SESSIONS_PER_HOST,
      smtpRcptsPerSession: e.SMTP_RCPTS_PER_SESSION,
      hostConcurrency: e.HOST_CONCURRENCY,
      allowlist: e.NETWORK_ALLOWLIST,
      tlsCaFile: e.TLS_CA_FILE,
    },
    browser: {
      chromiumPath: e.CHROMIUM_PATH,
      concurrency: e.BROWSER_CONCURRENCY ?? Math.max(2, os.availableParallelism() * 2),
      sandbox: { setting: e.CHROMIUM_SANDBOX, uid: e.CHROMIUM_SANDBOX_UID },
    },
    storageUrl: e.STORAGE_URL?.replace(/\/+$/, ''),
    artifacts: {
      store: artifactStore,
      s3: {
        bucket: e.S3_BUCKET,
        prefix: e.S3_PREFIX,
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        presignedDownloads: e.S3_PRESIGNED_DOWNLOADS,
      },
    },
    leads: {
      port: e.LEADS_PORT,
      baseUrl: e.LEADS_BASE_URL?.replace(/\/+$/, ''),
      apiKey: e.LEADS_API_KEY,
      smtpUrl: e.SMTP_URL,
      publicUrl: e.LEADS_PUBLIC_URL?.replace(/\/+$/, ''),
      mailFrom: e.LEADS_MAIL_FROM ?? `leads@${hostname}`,
    },
    x402: {
      payTo: e.X402_PAY_TO,
      network: e.X402_NETWORK,
      asset: e.X402_ASSET,
      rpcUrl: e.X402_RPC_URL,
      facilitatorUrl: e.X402_FACILITATOR_URL,
      settlerKey: e.X402_SETTLER_KEY,
      keyMinMicros: usdToMicros(e.X402_KEY_MIN_USD),
      keyMaxMicros: usdToMicros(e.X402_KEY_MAX_USD),
    },
    geo: {
      geocoderUrl: e.GEOCODER_URL,
      geocoderKind: e.GEOCODER_KIND,
      cityDb: e.GEOIP_CITY_DB,
      proxyListFile: e.PROXY_LIST_FILE,
      geocoderMinIntervalMs: e.GEOCODER_MIN_INTERVAL_MS,
      geocoderUserAgent: e.GEOCODER_USER_AGENT,
    },
    mcp: {
      tools: e.MCP_TOOLS,
      auth: e.MCP_AUTH,
      apiKey: e.MCP_API_KEY,
      inlineImageMaxBytes: e.MCP_INLINE_IMAGE_MAX_BYTES,
      stdioDataDir: cleaned.DATA_DIR !== undefined ? path.resolve(e.DATA_DIR) : path.join(os.homedir(), '.agent-utility'),
    },
  };
}

/** Names of every variable the service understands (for docs and `--help`). */
export const ENV_VARIABLES = Object.keys(envSchema.shape);
