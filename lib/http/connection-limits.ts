import { isIPv6 } from 'node:net';
import type { HttpServerSettings } from '../config.js';
import type { HttpError } from '../errors/http-errors.js';
import { retryLater } from '../errors/retry-later.js';
import { PerClientLimit } from './per-client-limit.js';

/** A client over its own share frees a connection as soon as one of its requests ends. */
const PER_CLIENT_RETRY_AFTER_SECONDS = 1;
const BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * Whose share a connection counts against. An IPv6 client is usually given a whole /64 network,
 * so counting single IPv6 addresses would limit nobody.
 */
export function clientOfAddress(address: string): string {
  const zoneless = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(zoneless);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (!isIPv6(zoneless)) return zoneless;
  const [head = '', tail] = zoneless.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 address at the end fills two groups.
  const rightGroups = right.length + (right.at(-1)?.includes('.') === true ? 1 : 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - rightGroups).fill('0')];
  const prefix = [...groups, ...right].slice(0, 4).map((group) => group.replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
}

export type Admission = { release: () => void; refusal?: never } | { refusal: HttpError; release?: never };

/**
 * Counts the open connections of the process and of each client, so one client (a slowloris, a
 * runaway script) cannot hold all of them. Counts are per process.
 */
export class ConnectionLimits {
  private open = 0;
  private readonly perClient: PerClientLimit | null;

  constructor(private readonly settings: HttpServerSettings) {
    this.perClient = settings.maxConnectionsPerIp > 0 ? new PerClientLimit(settings.maxConnectionsPerIp) : null;
  }

  /** Admits the connection (release it once it closes) or says why not. */
  admit(address: string | undefined): Admission {
    const { maxConnections, maxConnectionsPerIp } = this.settings;
    if (maxConnections > 0 && this.open >= maxConnections) {
      return {
        refusal: retryLater(
          503,
          `The server holds as many connections as it accepts (${maxConnections}); ` +
            `retry in ${BUSY_RETRY_AFTER_SECONDS} seconds`,
          'server_busy',
          BUSY_RETRY_AFTER_SECONDS,
        ),
      };
    }
    const releaseClient = this.perClient?.tryAcquire(clientOfAddress(address ?? 'unknown'));
    if (releaseClient === null) {
      return {
        refusal: retryLater(
          429,
          `Too many open connections from this address (at most ${maxConnectionsPerIp}); ` +
            'reuse keep-alive connections or retry later',
          'rate_limited',
          PER_CLIENT_RETRY_AFTER_SECONDS,
        ),
      };
    }
    this.open++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.open--;
        releaseClient?.();
      },
    };
  }
}
