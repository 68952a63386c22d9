import type { EnvReader } from './env-reader.js';
import { ConfigError } from '../errors/domain-errors.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Request logs, metrics and cross-origin access (lib/observability/, lib/http/cors.ts). */
export interface ObservabilitySettings {
  logLevel: LogLevel;
  /** Origins whose pages may write (reads are open to every origin); '*' lets every origin write. */
  corsOrigins: string[] | '*';
  /** When set, GET /metrics wants `Authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** When set, /metrics is served on this port only (not beside the API). */
  metricsPort: number | null;
  /** Per-command engine metrics from the driver's command events (costly: each reply is decoded twice). */
  engineCommandMetrics: boolean;
}

function isLogLevel(raw: string): raw is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(raw);
}

/** The origin a browser would send for `text`, or null when `text` is more (a path) or less than one. */
function originOf(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
  return bare && /^https?:$/.test(url.protocol) ? url.origin : null;
}

/** "https://a.example, http://localhost:5173" → the origins as browsers send them, or '*'. */
export function parseCorsOrigins(raw: string): string[] | '*' {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (items.includes('*')) return '*';
  return items.map((item) => {
    const origin = originOf(item);
    if (origin === null) {
      throw new ConfigError(
        `CORS_ORIGINS must be comma-separated origins such as "https://app.example.com" (scheme, host and port only) or "*", got "${item}"`,
      );
    }
    return origin;
  });
}

export function observabilitySettings(read: EnvReader): ObservabilitySettings {
  const level = read.given('LOG_LEVEL').toLowerCase();
  if (!isLogLevel(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  const port = read.text('METRICS_PORT');
  const metricsPort = port === null ? null : Number(port);
  if (metricsPort !== null && (!Number.isInteger(metricsPort) || metricsPort < 1 || metricsPort > 65535)) {
    throw new ConfigError(`METRICS_PORT must be a port number (1-65535), got "${port}"`);
  }
  return {
    logLevel: level,
    corsOrigins: parseCorsOrigins(read.text('CORS_ORIGINS') ?? ''),
    metricsToken: read.text('METRICS_TOKEN'),
    metricsPort,
    engineCommandMetrics: read.flag('METRICS_ENGINE_COMMANDS'),
  };
}
