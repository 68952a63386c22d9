import type { OptionDecl } from './option-types.js';

/** The engine, the server's addresses, content, media, accounts and the scheduler. */
export const SERVICE_OPTIONS: readonly OptionDecl[] = [
  {
    name: 'MONGODB_URI',
    kind: 'text',
    default: null,
    meaning: 'MongoDB connection string (replica set, sharded cluster, Atlas). Unset: embedded engine.',
  },
  { name: 'DB_NAME', kind: 'text', default: 'content_api', meaning: 'Database name inside the cluster.' },
  {
    name: 'DATA_DIR',
    kind: 'text',
    default: './data',
    meaning: 'Where the embedded engine keeps its data (only without `MONGODB_URI`).',
  },
  {
    name: 'ENGINE_MAX_HEAP',
    kind: 'text',
    default: '1g',
    meaning:
      "Heap limit of the embedded engine's JVM (`512m`, `2g`; `default`: the JVM's own, a quarter of the RAM). Only without `MONGODB_URI`.",
  },
  { name: 'PORT', kind: 'int', default: '3000', meaning: 'HTTP port.' },
  { name: 'HOST', kind: 'text', default: '0.0.0.0', meaning: 'Interface to listen on.' },
  { name: 'REGION', kind: 'text', default: 'local', meaning: 'Region name reported by `GET /v3/status`.' },
  {
    name: 'PUBLIC_URL',
    kind: 'text',
    default: null,
    derived: 'http://localhost:$PORT',
    meaning: 'Base address clients use to reach this server (links, route-not-found pointers).',
  },
  {
    name: 'UPLOAD_URL',
    kind: 'text',
    default: null,
    derived: 'PUBLIC_URL',
    meaning: "Base address of the media upload host (also the base of each media item's `location`).",
  },
  {
    name: 'AGENTS_URL',
    kind: 'text',
    default: null,
    derived: 'PUBLIC_URL',
    meaning: 'Host serving `/v3/agents`, `/v3/users`, `/v3/ai` (named by route-not-found answers).',
  },
  {
    name: 'JSON_BODY_LIMIT',
    kind: 'text',
    default: '5mb',
    meaning: 'Largest JSON request body; larger bodies get 413.',
  },
  {
    name: 'CACHE_MAX_MB',
    kind: 'int',
    default: '64',
    meaning:
      'Memory for cached read responses per process; a quarter of it more keeps the versions this process last wrote, so their next edit reads nothing.',
  },
  {
    name: 'LIST_ORDER_MAX_IDS',
    kind: 'int',
    default: '50000',
    meaning:
      'Object lists with at most this many matches keep their order per Bucket generation, so later pages are read by id (see Reading Objects); `0` turns it off.',
  },
  {
    name: 'MEDIA_MAX_BYTES',
    kind: 'int',
    default: '943718400',
    note: '(900 MB)',
    meaning: 'Largest media upload; larger ones get 413.',
  },
  {
    name: 'IMGPROC_CACHE_MB_PER_BUCKET',
    kind: 'int',
    default: '256',
    meaning: 'Stored processed images per Bucket (MB); past it the least recently used are evicted.',
  },
  {
    name: 'IMGPROC_CONCURRENCY',
    kind: 'int',
    default: '2',
    min: 1,
    meaning: 'Images one process transforms at once; a short queue waits, more get 503 with `Retry-After`.',
  },
  {
    name: 'ACCOUNT_TOKEN_SECRET',
    kind: 'text',
    default: null,
    meaning:
      'Secret signing account access tokens. Unset: one is generated once and kept in the database, so all processes share it.',
  },
  {
    name: 'ACCOUNT_TOKEN_TTL',
    kind: 'duration',
    default: '7d',
    meaning: 'Lifetime of an account access token: a number of seconds, or `45s`, `30m`, `12h`, `7d`.',
  },
  {
    name: 'LOGIN_MAX_ATTEMPTS_PER_EMAIL',
    kind: 'int',
    default: '10',
    min: 1,
    meaning:
      'Login attempts per e-mail (any outcome) in `LOGIN_WINDOW`, shared by all processes; past it 429 `login_throttled`. At least 1.',
  },
  {
    name: 'LOGIN_MAX_ATTEMPTS_PER_ADDRESS',
    kind: 'int',
    default: '100',
    meaning:
      'Login attempts per client address (IPv6: per /64) in `LOGIN_WINDOW`, whatever the e-mails; behind a proxy, raise it. `0`: no limit.',
  },
  {
    name: 'LOGIN_ADDRESS_TRICKLE_SECONDS',
    kind: 'int',
    default: '10',
    meaning:
      'Past `LOGIN_MAX_ATTEMPTS_PER_ADDRESS`, an address still gets one attempt per this many seconds (a flood cannot lock out its users). `0`: none.',
  },
  {
    name: 'LOGIN_WINDOW',
    kind: 'duration',
    default: '15m',
    meaning: 'Login-attempt window, from its first attempt: seconds, or `30m`, `1h` (see docs/accounts.md).',
  },
  {
    name: 'LOGIN_CONCURRENCY',
    kind: 'int',
    default: '2',
    min: 1,
    meaning: 'Password checks (scrypt, 128 MiB each) one process runs at once.',
  },
  {
    name: 'LOGIN_QUEUE',
    kind: 'int',
    default: '8',
    meaning: 'Logins one process lets wait (at most 5 s) for a check; more get 503 `login_busy` with `Retry-After`.',
  },
  {
    name: 'PREVIEW_TOKEN_SECRET',
    kind: 'text',
    default: null,
    meaning:
      'Secret signing preview tokens. Unset: one is generated once and kept in the database, so all processes share it.',
  },
  {
    name: 'SCHEDULER_INTERVAL_MS',
    kind: 'int',
    default: '5000',
    meaning: 'How often a process looks for due `publish_at`/`unpublish_at` work; `0` turns its scheduler off.',
  },
  {
    name: 'QUERY_TIMEOUT_MS',
    kind: 'int',
    default: '5000',
    meaning: 'Server-side time limit (`maxTimeMS`) of every find, aggregate and count; `0` means none.',
  },
  {
    name: 'QUERY_REGEX_SCAN_MB',
    kind: 'int',
    default: '8',
    meaning:
      'Text a `$regex` on `content` may scan per request (the matches of the other conditions); more answers 400 `query_too_broad`. `0`: no bound.',
  },
  {
    name: 'GRAPHQL_MAX_DEPTH',
    kind: 'int',
    default: '12',
    min: 1,
    meaning:
      'Nesting of fields a GraphQL operation may have (introspection aside); deeper answers `query_too_complex` before any read.',
  },
  {
    name: 'GRAPHQL_MAX_ALIASES',
    kind: 'int',
    default: '30',
    min: 0,
    meaning: 'Aliased fields one GraphQL operation may have; more answers `query_too_complex`.',
  },
  {
    name: 'GRAPHQL_MAX_COST',
    kind: 'int',
    default: '20000',
    min: 1,
    meaning:
      'Estimated cost of a GraphQL operation: each field 1, times the `limit` of the lists it is under (the v3 default when not given, 10 per relationship list); more answers `query_too_complex`.',
  },
  {
    name: 'GRAPHQL_INTROSPECTION',
    kind: 'flag',
    default: 'true',
    meaning: '`false` refuses GraphQL introspection (`__schema`, `__type`).',
  },
  {
    name: 'QUERY_REGEX_READS_PER_BUCKET',
    kind: 'int',
    default: '2',
    min: 1,
    meaning:
      'Object lists with a `$regex` on `content` one process runs at once per Bucket; more get 429 `rate_limited`.',
  },
  {
    name: 'BUCKET_MEMORY_MS',
    kind: 'int',
    default: '5000',
    meaning:
      "How long an Object write with the write key may take its Bucket from this process's memory (its command checks it); `0`: never.",
  },
  {
    name: 'MAX_RELATED_OBJECTS',
    kind: 'int',
    default: '1000',
    meaning: 'Distinct related Objects one `depth` read may load; more answers 413 `response_too_large`.',
  },
];
