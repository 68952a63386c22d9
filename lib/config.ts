import path from 'node:path';
import { ConfigError } from './errors/domain-errors.js';
import { PLAN_LIMITS, type Plan } from './config/plan.js';
import type { LoginSettings, RateLimitSettings } from './config/traffic-settings.js';
import { observabilitySettings, type ObservabilitySettings } from './config/observability-settings.js';
import { EnvReader } from './config/env-reader.js';

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
  /** Bytes of text a `$regex` on `content` may scan per request; 0: no bound. */
  regexScanBytes: number;
  /** Lists with a `$regex` on `content` one process runs at once per Bucket. */
  regexReadsPerBucket: number;
  /** What one GraphQL operation may ask for (lib/graphql/limits.ts). */
  graphql: { maxDepth: number; maxAliases: number; maxCost: number; introspection: boolean };
  /** How long a write with the write key may take its Bucket from this process's memory (lib/cache/bucket-generation.ts). */
  bucketMemoryMs: number;
  /** Distinct related Objects one read may load through depth; more answers 413. */
  maxRelatedObjects: number;
  /** Timeouts and connection limits of the HTTP server (lib/http/http-server.ts). */
  http: HttpServerSettings;
  /** Webhook delivery (lib/webhooks/). */
  webhooks: WebhookSettings;
  /** The change feed over Server-Sent Events (lib/realtime/). */
  realtime: RealtimeSettings;
  /** Extension archives and the pages fetched to check them (lib/extensions/). */
  extensions: ExtensionSettings;
  /** Requests per minute per Bucket and credential (lib/limits/rate-limits.ts). */
  rateLimits: RateLimitSettings;
  /** The plan of a Bucket that sets no limit of its own (PLAN_MAX_*); null: unlimited. */
  planDefaults: Plan;
  /** Login attempts per e-mail and per address, and password checks at once (lib/accounts/throttle.ts). */
  logins: LoginSettings;
  /** Request logs, metrics and CORS (lib/config/observability-settings.ts). */
  observability: ObservabilitySettings;
}

export interface RealtimeSettings {
  /** How long events are kept for clients that resume. */
  retentionMs: number;
  heartbeatMs: number;
  pollMs: number;
  /** The reconnection delay streams advise their clients. */
  retryMs: number;
  /** How long a stream ticket stays valid. */
  ticketTtlMs: number;
  /** Open streams per Bucket and per client address, per process; 0: no limit. */
  maxStreamsPerBucket: number;
  maxStreamsPerAddress: number;
  /** How old an event must be before a process hands it out (lib/events/feed-collection.ts says why). */
  settleMs: number;
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
  /** Deliveries one process attempts at once to one webhook. */
  endpointConcurrency: number;
  /** Failed attempts in a row that pause a webhook (its circuit breaker opens); 0: never. */
  pauseAfterFailures: number;
  /** How long a paused webhook waits before a probe. */
  pauseMs: number;
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

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** ENGINE_MAX_HEAP: a JVM size ("512m", "2g"), or "default" for the JVM's own choice. */
function engineMaxHeapFrom(read: EnvReader): string | null {
  const text = read.given('ENGINE_MAX_HEAP');
  if (text === 'default') return null;
  if (!/^[1-9][0-9]*[kmg]$/i.test(text)) {
    throw new Error(`ENGINE_MAX_HEAP must be a size such as "512m" or "2g", or "default", got "${text}"`);
  }
  return text;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const read = new EnvReader(env);
  const port = read.int('PORT');
  const host = read.given('HOST');
  const publicUrl = stripSlash(read.text('PUBLIC_URL') ?? `http://localhost:${port}`);
  return {
    port,
    host,
    mongodbUri: read.text('MONGODB_URI'),
    dbName: read.given('DB_NAME'),
    dataDir: path.resolve(read.given('DATA_DIR')),
    engineMaxHeap: engineMaxHeapFrom(read),
    region: read.given('REGION'),
    publicUrl,
    uploadUrl: stripSlash(read.text('UPLOAD_URL') ?? publicUrl),
    agentsUrl: stripSlash(read.text('AGENTS_URL') ?? publicUrl),
    jsonBodyLimit: read.given('JSON_BODY_LIMIT'),
    cacheMaxBytes: read.int('CACHE_MAX_MB') * 1024 * 1024,
    listOrderMaxIds: read.int('LIST_ORDER_MAX_IDS'),
    mediaMaxBytes: read.int('MEDIA_MAX_BYTES'),
    imgprocCacheBytesPerBucket: read.int('IMGPROC_CACHE_MB_PER_BUCKET') * 1024 * 1024,
    imgprocConcurrency: read.int('IMGPROC_CONCURRENCY'),
    previewTokenSecret: read.text('PREVIEW_TOKEN_SECRET'),
    accountTokenSecret: read.text('ACCOUNT_TOKEN_SECRET'),
    accountTokenTtlSeconds: read.seconds('ACCOUNT_TOKEN_TTL'),
    schedulerIntervalMs: read.int('SCHEDULER_INTERVAL_MS'),
    queryTimeoutMs: read.int('QUERY_TIMEOUT_MS'),
    bucketMemoryMs: read.int('BUCKET_MEMORY_MS'),
    regexScanBytes: read.int('QUERY_REGEX_SCAN_MB') * 1024 * 1024,
    regexReadsPerBucket: read.int('QUERY_REGEX_READS_PER_BUCKET'),
    graphql: {
      maxDepth: read.int('GRAPHQL_MAX_DEPTH'),
      maxAliases: read.int('GRAPHQL_MAX_ALIASES'),
      maxCost: read.int('GRAPHQL_MAX_COST'),
      introspection: read.flag('GRAPHQL_INTROSPECTION'),
    },
    maxRelatedObjects: read.int('MAX_RELATED_OBJECTS'),
    http: httpServerSettings(read),
    webhooks: webhookSettings(read),
    realtime: {
      retentionMs: read.seconds('REALTIME_RETENTION') * 1000,
      heartbeatMs: read.int('REALTIME_HEARTBEAT_MS'),
      pollMs: read.int('REALTIME_POLL_MS'),
      settleMs: read.int('REALTIME_SETTLE_MS'),
      retryMs: read.int('REALTIME_RETRY_MS'),
      ticketTtlMs: read.seconds('REALTIME_TICKET_TTL') * 1000,
      maxStreamsPerBucket: read.int('REALTIME_STREAMS_PER_BUCKET'),
      maxStreamsPerAddress: read.int('REALTIME_STREAMS_PER_ADDRESS'),
    },
    extensions: {
      zipMaxBytes: read.int('EXTENSION_ZIP_MAX_BYTES'),
      zipMaxEntries: read.int('EXTENSION_ZIP_MAX_ENTRIES'),
      zipMaxUnpackedBytes: read.int('EXTENSION_MAX_UNPACKED_BYTES'),
      fetchTimeoutMs: read.int('EXTENSION_FETCH_TIMEOUT_MS'),
    },
    rateLimits: {
      readsPerMinute: read.int('RATE_LIMIT_READS_PER_MINUTE'),
      writesPerMinute: read.int('RATE_LIMIT_WRITES_PER_MINUTE'),
    },
    planDefaults: planDefaults(read),
    logins: {
      perEmail: read.int('LOGIN_MAX_ATTEMPTS_PER_EMAIL'),
      perAddress: read.int('LOGIN_MAX_ATTEMPTS_PER_ADDRESS'),
      windowSeconds: read.seconds('LOGIN_WINDOW'),
      trickleSeconds: read.int('LOGIN_ADDRESS_TRICKLE_SECONDS'),
      concurrency: read.int('LOGIN_CONCURRENCY'),
      queue: read.int('LOGIN_QUEUE'),
    },
    observability: observabilitySettings(read),
  };
}

/** Unset means unlimited; 0 is a limit too (none allowed). */
function planDefaults(read: EnvReader): Plan {
  const limit = (name: string) => read.limit(name);
  const { objects, media_bytes, object_types, webhooks, requests_per_month } = PLAN_LIMITS;
  return {
    max_objects: limit(objects.env),
    max_media_bytes: limit(media_bytes.env),
    max_object_types: limit(object_types.env),
    max_webhooks: limit(webhooks.env),
    max_requests_per_month: limit(requests_per_month.env),
  };
}

function webhookSettings(read: EnvReader): WebhookSettings {
  const retryScheduleMs = read.durations('WEBHOOK_RETRY_SCHEDULE');
  const settings: WebhookSettings = {
    allowPrivate: read.flag('WEBHOOK_ALLOW_PRIVATE'),
    retryScheduleMs,
    timeoutMs: read.int('WEBHOOK_TIMEOUT_MS'),
    leaseMs: read.int('WEBHOOK_LEASE_MS'),
    pollMs: read.int('WEBHOOK_POLL_MS'),
    concurrency: read.int('WEBHOOK_CONCURRENCY'),
    endpointConcurrency: read.int('WEBHOOK_ENDPOINT_CONCURRENCY'),
    pauseAfterFailures: read.int('WEBHOOK_PAUSE_AFTER_FAILURES'),
    pauseMs: read.int('WEBHOOK_PAUSE_MS'),
    disableAfterFailures: read.int('WEBHOOK_DISABLE_AFTER_FAILURES'),
    logDays: read.int('WEBHOOK_LOG_DAYS'),
  };
  // A claim that lapses while its request may still be answered would let a second worker send it too.
  if (settings.leaseMs <= settings.timeoutMs) {
    throw new ConfigError('WEBHOOK_LEASE_MS must exceed WEBHOOK_TIMEOUT_MS');
  }
  return settings;
}

function httpServerSettings(read: EnvReader): HttpServerSettings {
  const settings: HttpServerSettings = {
    headersTimeoutMs: read.int('HTTP_HEADERS_TIMEOUT_MS'),
    // 900 MB (MEDIA_MAX_BYTES) in 10 minutes needs 1.5 MB/s; slower links need a longer limit.
    requestTimeoutMs: read.int('HTTP_REQUEST_TIMEOUT_MS'),
    idleTimeoutMs: read.int('HTTP_IDLE_TIMEOUT_MS'),
    keepAliveTimeoutMs: read.int('HTTP_KEEP_ALIVE_TIMEOUT_MS'),
    maxConnections: read.int('HTTP_MAX_CONNECTIONS'),
    maxConnectionsPerIp: read.int('HTTP_MAX_CONNECTIONS_PER_IP'),
    maxHeadersCount: read.int('HTTP_MAX_HEADERS_COUNT'),
  };
  // Node refuses to start otherwise: the headers are part of the request.
  if (settings.requestTimeoutMs > 0 && settings.headersTimeoutMs > settings.requestTimeoutMs) {
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  return settings;
}
