import path from 'node:path';
import { ConfigError } from './errors/domain-errors.js';

/** Everything the service reads from the environment, parsed once and typed. */
export interface Config {
  port: number;
  host: string;
  mongodbUri: string | null;
  dbName: string;
  dataDir: string;
  region: string;
  publicUrl: string;
  uploadUrl: string;
  agentsUrl: string;
  jsonBodyLimit: string;
  cacheMaxBytes: number;
  /** Largest media upload in bytes; larger uploads are refused with 413. */
  mediaMaxBytes: number;
  /** Stored processed images per Bucket, in bytes; beyond it the least recently used are evicted. */
  imgprocCacheBytesPerBucket: number;
  /** Images this process transforms at once; more requests queue briefly, then get 503. */
  imgprocConcurrency: number;
  /** Signs preview tokens; unset: a secret generated once and kept in the database. */
  previewTokenSecret: string | null;
  /** How often this process looks for scheduled publishing work; 0 turns the scheduler off. */
  schedulerIntervalMs: number;
  /** Server-side time limit (maxTimeMS) of every find, aggregate and count; 0 means none. */
  queryTimeoutMs: number;
  /** Distinct related Objects one read may load through depth; more answers 413. */
  maxRelatedObjects: number;
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
    region: env.REGION || 'local',
    publicUrl,
    uploadUrl: stripSlash(env.UPLOAD_URL || publicUrl),
    agentsUrl: stripSlash(env.AGENTS_URL || publicUrl),
    jsonBodyLimit: env.JSON_BODY_LIMIT || '5mb',
    cacheMaxBytes: intFrom(env, 'CACHE_MAX_MB', 64) * 1024 * 1024,
    mediaMaxBytes: intFrom(env, 'MEDIA_MAX_BYTES', 900 * 1024 * 1024),
    imgprocCacheBytesPerBucket: intFrom(env, 'IMGPROC_CACHE_MB_PER_BUCKET', 256) * 1024 * 1024,
    imgprocConcurrency: Math.max(1, intFrom(env, 'IMGPROC_CONCURRENCY', 2)),
    previewTokenSecret: env.PREVIEW_TOKEN_SECRET || null,
    schedulerIntervalMs: intFrom(env, 'SCHEDULER_INTERVAL_MS', 5000),
    queryTimeoutMs: intFrom(env, 'QUERY_TIMEOUT_MS', 5000),
    maxRelatedObjects: intFrom(env, 'MAX_RELATED_OBJECTS', 1000),
  };
}
