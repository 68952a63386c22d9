import { BadRequestError } from '../errors/http-errors.js';
import { framingRefusal } from './framing.js';
import { FetchFailure, guardedGet, type Fetched, type OutboundOptions } from './guarded-get.js';
import { checkZip, ZipRefusal, type ZipEntry, type ZipLimits } from '../store/zip-check.js';
import { verifyContents } from './zip-unpack.js';

export interface ArchiveLimits extends ZipLimits {
  maxUnpackedBytes: number;
}

/** The archive's entries, once its structure and every entry's contents check out; or 400 extension_zip_invalid naming the problem. */
export async function acceptArchive(bytes: Buffer, limits: ArchiveLimits, what: string): Promise<ZipEntry[]> {
  try {
    const entries = checkZip(bytes, limits);
    await verifyContents(bytes, entries, limits.maxUnpackedBytes);
    return entries;
  } catch (err) {
    if (err instanceof ZipRefusal) {
      throw new BadRequestError(`The extension archive ${what} was refused: ${err.message}`, 'extension_zip_invalid');
    }
    throw err;
  }
}

/** An absolute URL of one of `protocols`, or 400 naming the field. */
export function parseAddress(field: string, text: string, protocols: readonly string[]): URL {
  const url = URL.canParse(text) ? new URL(text) : null;
  const allowed = protocols.map((p) => p.replace(/:$/, '')).join(' or ');
  if (!url || !protocols.includes(url.protocol)) {
    throw new BadRequestError(
      `Invalid body: ${field} must be an absolute ${allowed} URL, got "${text}"`,
      'invalid_body',
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new BadRequestError(`Invalid body: ${field} must not carry a user name or password`, 'invalid_body');
  }
  return url;
}

/**
 * An Extension's icon address as stored: an absolute http or https URL (the dashboard shows it in
 * an img, so javascript:, data: and other schemes are refused with 400), or null or "" for none.
 */
export function iconAddress(value: string | null): string | null {
  if (value === null || value === '') return value;
  return parseAddress('image_url', value, ['http:', 'https:']).href;
}

async function fetchFor(field: string, url: URL, opts: OutboundOptions, withBody: boolean): Promise<Fetched> {
  try {
    return await guardedGet(url, opts, withBody);
  } catch (err) {
    if (err instanceof FetchFailure) {
      const doing = withBody ? 'could not be downloaded' : 'could not be checked for framing';
      throw new BadRequestError(`The ${field} ${url.href} ${doing}: ${err.message}`, 'extension_fetch_failed');
    }
    throw err;
  }
}

/** Downloads the archive at zip_url through the SSRF guard and checks it like an upload. */
export async function downloadArchive(
  url: URL,
  opts: OutboundOptions,
  limits: ArchiveLimits,
): Promise<{ bytes: Buffer; entries: ZipEntry[] }> {
  const { body } = await fetchFor('zip_url', url, opts, true);
  return { bytes: body, entries: await acceptArchive(body, limits, `at ${url.href}`) };
}

/**
 * Fetches the page through the SSRF guard and refuses it (400) when its headers forbid framing;
 * when the page cannot be fetched the framing cannot be known, and that is a 400 too.
 */
export async function assertFrameable(url: URL, opts: OutboundOptions): Promise<void> {
  const { headers } = await fetchFor('url', url, opts, false);
  const joined = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);
  const why = framingRefusal({
    xFrameOptions: joined(headers['x-frame-options']),
    contentSecurityPolicy: joined(headers['content-security-policy']),
  });
  if (why !== null) {
    throw new BadRequestError(
      `The url ${url.href} cannot be shown in the dashboard's frame: ${why}`,
      'extension_unframeable',
    );
  }
}
