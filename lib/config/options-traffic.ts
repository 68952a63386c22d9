import type { OptionDecl } from './option-types.js';

/** HTTP limits, webhooks, Extensions, rate limits and plans, logs and metrics. */
export const TRAFFIC_OPTIONS: readonly OptionDecl[] = [
  {
    name: 'HTTP_HEADERS_TIMEOUT_MS',
    kind: 'int',
    default: '20000',
    meaning: 'The request line and headers must arrive within this; later: 408 `request_timeout`. `0`: no limit.',
  },
  {
    name: 'HTTP_REQUEST_TIMEOUT_MS',
    kind: 'int',
    default: '600000',
    note: '(10 min)',
    meaning:
      'The whole request, body included, must arrive within this (a 900 MB upload needs 1.5 MB/s). `0`: no limit.',
  },
  {
    name: 'HTTP_IDLE_TIMEOUT_MS',
    kind: 'int',
    default: '60000',
    meaning:
      'A connection on which nothing moves this long is closed (a body that stops arriving gets 408). `0`: never.',
  },
  {
    name: 'HTTP_KEEP_ALIVE_TIMEOUT_MS',
    kind: 'int',
    default: '5000',
    meaning: 'How long an idle keep-alive connection waits for its next request.',
  },
  {
    name: 'HTTP_MAX_CONNECTIONS',
    kind: 'int',
    default: '4096',
    meaning: 'Open connections per process; more are answered 503 `server_busy` and closed. `0`: no limit.',
  },
  {
    name: 'HTTP_MAX_CONNECTIONS_PER_IP',
    kind: 'int',
    default: '256',
    meaning:
      'Open connections per client address (IPv6: per /64); more get 429 `rate_limited` and are closed. `0`: no limit.',
  },
  {
    name: 'HTTP_MAX_HEADERS_COUNT',
    kind: 'int',
    default: '100',
    meaning: 'Request headers read; further ones are ignored. `0`: no limit.',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE',
    kind: 'flag',
    default: 'false',
    meaning:
      '`true` lets webhook endpoints resolve to loopback and private addresses (tests and local development set it). Link-local and metadata addresses stay refused.',
  },
  {
    name: 'WEBHOOK_RETRY_SCHEDULE',
    kind: 'durations',
    default: '30s,2m,10m,1h,6h,24h',
    meaning:
      'Waits before each retry of a failed webhook delivery (units `ms`, `s`, `m`, `h`, `d`; ±20% jitter); after the last the delivery has failed.',
  },
  {
    name: 'WEBHOOK_TIMEOUT_MS',
    kind: 'int',
    default: '10000',
    min: 1,
    meaning: 'A webhook attempt without a 2xx answer by then has failed.',
  },
  {
    name: 'WEBHOOK_LEASE_MS',
    kind: 'int',
    default: '60000',
    meaning:
      "How long a process holds a delivery it is sending; a killed process's deliveries are sent by another after this. Must exceed `WEBHOOK_TIMEOUT_MS`.",
  },
  {
    name: 'WEBHOOK_POLL_MS',
    kind: 'int',
    default: '1000',
    meaning: 'How often a process looks for due webhook deliveries; `0` turns its delivery worker off.',
  },
  {
    name: 'REALTIME_RETENTION',
    kind: 'duration',
    default: '24h',
    meaning:
      'How long the change feed keeps events for clients that resume; an older `Last-Event-ID` gets one `reset`.',
  },
  {
    name: 'REALTIME_HEARTBEAT_MS',
    kind: 'int',
    default: '15000',
    meaning: 'A change feed stream with nothing to send writes a comment line this often, so proxies keep it open.',
  },
  {
    name: 'REALTIME_POLL_MS',
    kind: 'int',
    default: '250',
    meaning: 'How often a process with open change feed streams reads the events written since its last read.',
  },
  {
    name: 'REALTIME_SETTLE_MS',
    kind: 'int',
    default: '500',
    meaning:
      'The change feed sends an event once it is this old, so a slower write with a smaller id is not passed over (docs/realtime.md).',
  },
  {
    name: 'REALTIME_RETRY_MS',
    kind: 'int',
    default: '3000',
    meaning: "How long a change feed client waits before it reconnects (the stream's `retry:` field).",
  },
  {
    name: 'REALTIME_TICKET_TTL',
    kind: 'duration',
    default: '60s',
    meaning: 'How long a change feed stream ticket may wait to open its one stream.',
  },
  {
    name: 'REALTIME_STREAMS_PER_BUCKET',
    kind: 'int',
    default: '1000',
    meaning: 'Open change feed streams per Bucket and process; more get 429 with `Retry-After`. `0`: no limit.',
  },
  {
    name: 'REALTIME_STREAMS_PER_ADDRESS',
    kind: 'int',
    default: '20',
    meaning: 'Open change feed streams per client address and process; more get 429 with `Retry-After`. `0`: no limit.',
  },
  {
    name: 'WEBHOOK_CONCURRENCY',
    kind: 'int',
    default: '16',
    min: 1,
    meaning: 'Webhook deliveries one process sends at once.',
  },
  {
    name: 'WEBHOOK_ENDPOINT_CONCURRENCY',
    kind: 'int',
    default: '4',
    min: 1,
    meaning:
      'Deliveries one process sends to one webhook at once; the rest of `WEBHOOK_CONCURRENCY` serves other webhooks.',
  },
  {
    name: 'WEBHOOK_PAUSE_AFTER_FAILURES',
    kind: 'int',
    default: '10',
    meaning:
      'Failed attempts in a row after which a webhook is paused for `WEBHOOK_PAUSE_MS` (its deliveries wait, unspent); `0`: never.',
  },
  {
    name: 'WEBHOOK_PAUSE_MS',
    kind: 'int',
    default: '60000',
    min: 1,
    meaning: 'How long a paused webhook waits before one delivery probes it; a success resumes the rest.',
  },
  {
    name: 'WEBHOOK_DISABLE_AFTER_FAILURES',
    kind: 'int',
    default: '20',
    min: 1,
    meaning: 'Consecutive failed deliveries after which a webhook is disabled (with the reason stored).',
  },
  {
    name: 'WEBHOOK_LOG_DAYS',
    kind: 'int',
    default: '30',
    min: 1,
    meaning: 'Finished deliveries are removed this many days after they finished (TTL index).',
  },
  {
    name: 'EXTENSION_ZIP_MAX_BYTES',
    kind: 'int',
    default: '20971520',
    note: '(20 MB)',
    min: 1,
    meaning:
      'Largest extension archive, uploaded or fetched from `zip_url`; a larger one gets 400 `extension_zip_invalid`.',
  },
  {
    name: 'EXTENSION_ZIP_MAX_ENTRIES',
    kind: 'int',
    default: '1000',
    min: 1,
    meaning: 'Most files and folders one extension archive may list; more get 400 `extension_zip_invalid`.',
  },
  {
    name: 'EXTENSION_MAX_UNPACKED_BYTES',
    kind: 'int',
    default: '104857600',
    note: '(100 MB)',
    min: 1,
    meaning:
      'What the entries of one extension archive may unpack to together (each is inflated once on install to check it).',
  },
  {
    name: 'EXTENSION_FETCH_TIMEOUT_MS',
    kind: 'int',
    default: '10000',
    min: 1,
    meaning:
      'A `zip_url` download or `url` framing check must end by then, else 400 `extension_fetch_failed` (addresses as `WEBHOOK_ALLOW_PRIVATE` allows).',
  },
  {
    name: 'RATE_LIMIT_READS_PER_MINUTE',
    kind: 'int',
    default: '6000',
    meaning:
      'Reads (GET) per minute per Bucket and credential, shared by all processes; past it 429 (see docs/operations.md). `0`: no limit.',
  },
  {
    name: 'RATE_LIMIT_WRITES_PER_MINUTE',
    kind: 'int',
    default: '1200',
    meaning:
      'Writes (every other method) per minute per Bucket and credential, shared by all processes; past it 429. `0`: no limit.',
  },
  {
    name: 'PLAN_MAX_OBJECTS',
    kind: 'limit',
    default: null,
    note: '(unlimited)',
    meaning:
      'Objects a Bucket may hold unless `bucketctl set-plan` sets its own limit; past it 402 `plan_limit_reached`. `0`: none.',
  },
  {
    name: 'PLAN_MAX_MEDIA_BYTES',
    kind: 'limit',
    default: null,
    note: '(unlimited)',
    meaning: 'Bytes of media files a Bucket may hold (same rules).',
  },
  {
    name: 'PLAN_MAX_OBJECT_TYPES',
    kind: 'limit',
    default: null,
    note: '(unlimited)',
    meaning: 'Object types a Bucket may have (same rules).',
  },
  {
    name: 'PLAN_MAX_WEBHOOKS',
    kind: 'limit',
    default: null,
    note: '(unlimited)',
    meaning: 'Webhooks a Bucket may have (same rules; at most 50 in any case).',
  },
  {
    name: 'PLAN_MAX_REQUESTS_PER_MONTH',
    kind: 'limit',
    default: null,
    note: '(unlimited)',
    meaning:
      'Requests a Bucket may be served per calendar month (UTC); past it every Bucket route answers 402 until the month ends.',
  },
  {
    name: 'LOG_LEVEL',
    kind: 'text',
    default: 'info',
    meaning:
      '`fatal`, `error`, `warn`, `info` (a line per request), `debug`, `trace` or `silent`. JSON lines on stdout; readable lines when stdout is a terminal.',
  },
  {
    name: 'CORS_ORIGINS',
    kind: 'text',
    default: null,
    note: '(none)',
    meaning:
      'Comma-separated origins (`https://app.example.com,http://localhost:5173`) whose pages may write; `*`: every origin. Reads are open to every origin.',
  },
  {
    name: 'METRICS_TOKEN',
    kind: 'text',
    default: null,
    meaning: 'When set, `GET /metrics` wants `Authorization: Bearer <token>` (else 401 `unauthorized`).',
  },
  {
    name: 'METRICS_PORT',
    kind: 'text',
    default: null,
    meaning: 'When set, `/metrics` is served on this port (on `HOST`) and not on `PORT`.',
  },
  {
    name: 'METRICS_ENGINE_COMMANDS',
    kind: 'flag',
    default: 'false',
    meaning:
      "`true` adds per-command engine metrics from the driver's command events (costs CPU on every database reply).",
  },
  {
    name: 'MONGOMS_SYSTEM_BINARY',
    kind: 'text',
    default: null,
    readBy: 'mongodb-memory-server',
    meaning: 'Path to a `mongod` binary for the embedded engine (preferred over the Java engine).',
  },
  {
    name: 'MONGOMS_RUNTIME_DOWNLOAD',
    kind: 'text',
    default: 'false',
    readBy: 'mongodb-memory-server',
    meaning: '`true` lets mongodb-memory-server download a `mongod`.',
  },
];
