import path from 'node:path';
import { ConfigError } from './errors/domain-errors.js';
import { PLAN_LIMITS, type Plan } from './db/plan.js';
import type { RateLimitSettings } from './limits/rate-limits.js';
import type { LoginSettings } from './accounts/throttle.js';
import { observabilitySettings, type ObservabilitySettings } from './observability/settings.js';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './webhooks/retry.js';

/** Everything the service reads from the environment, parsed once and typed. */
export interface Config {
  port: number;
  host: string;
  mongodbUri: string | null;
  dbName: string;
  dataDir: string;
  /** `-Xmx` of the embedded engine's JVM; null leaves the JVM's default. */
  engineMaxHeap: string | null;
  region: string;
  publicUrl: string;
  uploadUrl: string;
  agentsUrl: string;
  jsonBodyLimit: string;
  cacheMaxBytes: number;
  /** Matches an Object list may have for its order to be kept per Bucket generation; 0 keeps none. */
  listOrderMaxIds: number;
  /** Largest media upload in bytes; larger uploads are refused with 413. */
  mediaMaxBytes: number;
  /** Stored processed images per Bucket, in bytes; beyond it the least recently used are evicted. */
  imgprocCacheBytesPerBucket: number;
  /** Images this process transforms at once; more requests queue briefly, then get 503. */
  imgprocConcurrency: number;
  /** Signs preview tokens; unset: a secret generated once and kept in the database. */
  previewTokenSecret: string | null;
  /** Signs account access tokens; unset: a secret generated once and kept in the database. */
  accountTokenSecret: string | null;
  /** Lifetime of an account access token, in seconds (ACCOUNT_TOKEN_TTL). */
  accountTokenTtlSeconds: number;
  /** How often this process looks for scheduled publishing work; 0 turns the scheduler off. */
  schedulerIntervalMs: number;
  /** Server-side time limit (maxTimeMS) of every find, aggregate and count; 0 means none. */
  queryTimeoutMs: number;
  /** Distinct related Objects one read may load through depth; more answers 413. */
  maxRelatedObjects: number;
  /** Timeouts and connection limits of the HTTP server (lib/http/http-server.ts). */
  http: HttpServerSettings;
  /** Webhook delivery (lib/webhooks/). */
  webhooks: WebhookSettings;
  /** Extension archives and the pages fetched to check them (lib/extensions/). */
  extensions: ExtensionSettings;
  /** Requests per minute per Bucket and credential (lib/limits/rate-limits.ts). */
  rateLimits: RateLimitSettings;
  /** The plan of a Bucket that sets no limit of its own (PLAN_MAX_*); null: unlimited. */
  planDefaults: Plan;
  /** Login attempts per e-mail and per address, and password checks at once (lib/accounts/throttle.ts). */
  logins: LoginSettings;
  /** Request logs, metrics and CORS (lib/observability/settings.ts). */
  observability: ObservabilitySettings;
}

export interface WebhookSettings {
  /** Loopback and private addresses may be endpoints (tests, local development); link-local never. */
  allowPrivate: boolean;
  /** The wait before each retry, in ms; past the last a delivery has failed. */
  retryScheduleMs: number[];
  /** An attempt that has no complete 2xx answer by then has failed. */
  timeoutMs: number;
  /** How long a worker's claim on a delivery lasts; a killed worker's deliveries are retried after it. */
  leaseMs: number;
  /** How often a process looks for due deliveries; 0 turns its delivery worker off. */
  pollMs: number;
  /** Deliveries one process attempts at once. */
  concurrency: number;
  /** Consecutive failed deliveries after which a webhook is disabled. */
  disableAfterFailures: number;
  /** Finished deliveries are removed this many days after they finished. */
  logDays: number;
}

/** Caps of an extension archive, uploaded or fetched, and of one outbound fetch. */
export interface ExtensionSettings {
  zipMaxBytes: number;
  zipMaxEntries: number;
  /** The declared sizes of an archive's entries together; each entry is inflated once to check it. */
  zipMaxUnpackedBytes: number;
  /** A zip_url or url check that has no complete answer by then fails with a 400. */
  fetchTimeoutMs: number;
}

/** Bounds on what one client can hold of the HTTP server; 0 turns a setting off. */
export interface HttpServerSettings {
  /** The request line and headers must have arrived this long after the request began. */
  headersTimeoutMs: number;
  /** The whole request, body included, must have arrived by then (a large upload on a slow link). */
  requestTimeoutMs: number;
  /** A connection on which nothing moves this long is cut (a body that stops arriving). */
  idleTimeoutMs: number;
  /** How long an idle keep-alive connection waits for its next request. */
  keepAliveTimeoutMs: number;
  /** Open connections the process accepts; more are answered 503 and closed. */
  maxConnections: number;
  /** Open connections one client address may hold; more are answered 429 and closed. */
  maxConnectionsPerIp: number;
  /** Request headers read; more are ignored. */
  maxHeadersCount: number;
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** ENGINE_MAX_HEAP: a JVM size ("512m", "2g"), or "default" for the JVM's own choice. */
function engineMaxHeapFrom(env: NodeJS.ProcessEnv): string | null {
  const text = env.ENGINE_MAX_HEAP || '1g';
  if (text === 'default') return null;
  if (!/^[1-9][0-9]*[kmg]$/i.test(text)) {
    throw new Error(`ENGINE_MAX_HEAP must be a size such as "512m" or "2g", or "default", got "${text}"`);
  }
  return text;
}

const DURATION_UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A duration such as "7d", "12h", "30m" or "45s" (a bare number is seconds). */
function durationSecondsFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  const m = /^([1-9][0-9]*)([smhd]?)$/.exec(text.trim());
  if (!m) throw new ConfigError(`${name} must be a duration such as "7d", "12h", "30m" or "45s", got "${text}"`);
  return Number(m[1]) * (DURATION_UNITS[m[2] || 's'] ?? 1);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = intFrom(env, 'PORT', 3000);
  const host = env.HOST || '0.0.0.0';
  const publicUrl = stripSlash(env.PUBLIC_URL || `http://localhost:${port}`);
  return {
    port,
    host,
    mongodbUri: env.MONGODB_URI || null,
    dbName: env.DB_NAME || 'content_api',
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    engineMaxHeap: engineMaxHeapFrom(env),
    region: env.REGION || 'local',
    publicUrl,
    uploadUrl: stripSlash(env.UPLOAD_URL || publicUrl),
    agentsUrl: stripSlash(env.AGENTS_URL || publicUrl),
    jsonBodyLimit: env.JSON_BODY_LIMIT || '5mb',
    cacheMaxBytes: intFrom(env, 'CACHE_MAX_MB', 64) * 1024 * 1024,
    listOrderMaxIds: intFrom(env, 'LIST_ORDER_MAX_IDS', 20_000),
    mediaMaxBytes: intFrom(env, 'MEDIA_MAX_BYTES', 900 * 1024 * 1024),
    imgprocCacheBytesPerBucket: intFrom(env, 'IMGPROC_CACHE_MB_PER_BUCKET', 256) * 1024 * 1024,
    imgprocConcurrency: Math.max(1, intFrom(env, 'IMGPROC_CONCURRENCY', 2)),
    previewTokenSecret: env.PREVIEW_TOKEN_SECRET || null,
    accountTokenSecret: env.ACCOUNT_TOKEN_SECRET || null,
    accountTokenTtlSeconds: durationSecondsFrom(env, 'ACCOUNT_TOKEN_TTL', 7 * 24 * 3600),
    schedulerIntervalMs: intFrom(env, 'SCHEDULER_INTERVAL_MS', 5000),
    queryTimeoutMs: intFrom(env, 'QUERY_TIMEOUT_MS', 5000),
    maxRelatedObjects: intFrom(env, 'MAX_RELATED_OBJECTS', 1000),
    http: httpServerSettings(env),
    webhooks: webhookSettings(env),
    extensions: {
      zipMaxBytes: Math.max(1, intFrom(env, 'EXTENSION_ZIP_MAX_BYTES', 20 * 1024 * 1024)),
      zipMaxEntries: Math.max(1, intFrom(env, 'EXTENSION_ZIP_MAX_ENTRIES', 1000)),
      zipMaxUnpackedBytes: Math.max(1, intFrom(env, 'EXTENSION_MAX_UNPACKED_BYTES', 100 * 1024 * 1024)),
      fetchTimeoutMs: Math.max(1, intFrom(env, 'EXTENSION_FETCH_TIMEOUT_MS', 10_000)),
    },
    rateLimits: {
      readsPerMinute: intFrom(env, 'RATE_LIMIT_READS_PER_MINUTE', 6000),
      writesPerMinute: intFrom(env, 'RATE_LIMIT_WRITES_PER_MINUTE', 1200),
    },
    planDefaults: planDefaults(env),
    logins: {
      perEmail: Math.max(1, intFrom(env, 'LOGIN_MAX_ATTEMPTS_PER_EMAIL', 10)),
      perAddress: intFrom(env, 'LOGIN_MAX_ATTEMPTS_PER_ADDRESS', 100),
      windowSeconds: durationSecondsFrom(env, 'LOGIN_WINDOW', 15 * 60),
      concurrency: Math.max(1, intFrom(env, 'LOGIN_CONCURRENCY', 2)),
      queue: intFrom(env, 'LOGIN_QUEUE', 8),
    },
    observability: observabilitySettings(env),
  };
}

/** Unset means unlimited; 0 is a limit too (none allowed). */
function planDefaults(env: NodeJS.ProcessEnv): Plan {
  const limit = (name: string) => (env[name] === undefined || env[name] === '' ? null : intFrom(env, name, 0));
  const { objects, media_bytes, object_types, webhooks, requests_per_month } = PLAN_LIMITS;
  return {
    max_objects: limit(objects.env),
    max_media_bytes: limit(media_bytes.env),
    max_object_types: limit(object_types.env),
    max_webhooks: limit(webhooks.env),
    max_requests_per_month: limit(requests_per_month.env),
  };
}

function flagFrom(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = env[name] ?? '';
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function webhookSettings(env: NodeJS.ProcessEnv): WebhookSettings {
  const scheduleText = env.WEBHOOK_RETRY_SCHEDULE ?? DEFAULT_RETRY_SCHEDULE;
  const retryScheduleMs = parseRetrySchedule(scheduleText);
  if (retryScheduleMs === null) {
    throw new ConfigError(
      `WEBHOOK_RETRY_SCHEDULE must be comma-separated waits such as "30s,2m,1h" (units ms, s, m, h, d), got "${scheduleText}"`,
    );
  }
  const settings: WebhookSettings = {
    allowPrivate: flagFrom(env, 'WEBHOOK_ALLOW_PRIVATE'),
    retryScheduleMs,
    timeoutMs: Math.max(1, intFrom(env, 'WEBHOOK_TIMEOUT_MS', 10_000)),
    leaseMs: intFrom(env, 'WEBHOOK_LEASE_MS', 60_000),
    pollMs: intFrom(env, 'WEBHOOK_POLL_MS', 1000),
    concurrency: Math.max(1, intFrom(env, 'WEBHOOK_CONCURRENCY', 16)),
    disableAfterFailures: Math.max(1, intFrom(env, 'WEBHOOK_DISABLE_AFTER_FAILURES', 20)),
    logDays: Math.max(1, intFrom(env, 'WEBHOOK_LOG_DAYS', 30)),
  };
  // A claim that lapses while its request may still be answered would let a second worker send it too.
  if (settings.leaseMs <= settings.timeoutMs) {
    throw new ConfigError('WEBHOOK_LEASE_MS must exceed WEBHOOK_TIMEOUT_MS');
  }
  return settings;
}

function httpServerSettings(env: NodeJS.ProcessEnv): HttpServerSettings {
  const settings: HttpServerSettings = {
    headersTimeoutMs: intFrom(env, 'HTTP_HEADERS_TIMEOUT_MS', 20_000),
    // 900 MB (MEDIA_MAX_BYTES) in 10 minutes needs 1.5 MB/s; slower links need a longer limit.
    requestTimeoutMs: intFrom(env, 'HTTP_REQUEST_TIMEOUT_MS', 10 * 60_000),
    idleTimeoutMs: intFrom(env, 'HTTP_IDLE_TIMEOUT_MS', 60_000),
    keepAliveTimeoutMs: intFrom(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000),
    maxConnections: intFrom(env, 'HTTP_MAX_CONNECTIONS', 4096),
    maxConnectionsPerIp: intFrom(env, 'HTTP_MAX_CONNECTIONS_PER_IP', 256),
    maxHeadersCount: intFrom(env, 'HTTP_MAX_HEADERS_COUNT', 100),
  };
  // Node refuses to start otherwise: the headers are part of the request.
  if (settings.requestTimeoutMs > 0 && settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  return settings;
}
