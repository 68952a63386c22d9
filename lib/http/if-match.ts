import { BadRequestError, HttpError } from '../errors/http-errors.js';
import type { ObjectDoc } from '../db/collections.js';

/**
 * Conditional writes (RFC 9110 If-Match). A version is the time its write put it down, in
 * milliseconds, as a string: every write of one document moves that time strictly forward, so
 * it names one version. The ETag of a read starts with it (`"<version>"` or
 * `"<version>-<digest of the body>"`), so a client may send back either the ETag it read or the
 * `version` field it found in a list. Below: the guards a write checks the version in place with,
 * and the time the next version takes.
 */
export type IfMatch = { any: true } | { any: false; versions: ReadonlySet<string> };

/** One entity tag: optionally weak, then a quoted run of the characters RFC 9110 allows. */
const ENTITY_TAG = /^(W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/** Tags one If-Match may list; a longer list is a client bug, not a wish. */
const MAX_TAGS = 20;

/**
 * The header as sent, or null when absent. `*` matches any version in place. A weak tag is
 * valid but never matches (If-Match compares strongly), nor does a tag this service did not make.
 */
export function parseIfMatch(header: string | undefined): IfMatch | null {
  if (header === undefined) return null;
  const value = header.trim();
  if (value === '*') return { any: true };
  const tags = value.split(',').map((t) => t.trim());
  if (tags.length > MAX_TAGS) throw badIfMatch(`lists more than ${String(MAX_TAGS)} entity tags`);
  const versions = new Set<string>();
  for (const tag of tags) {
    const m = ENTITY_TAG.exec(tag);
    if (!m) throw badIfMatch(`"${tag.slice(0, 60)}" is not an entity tag (a quoted ETag such as "1732812345678")`);
    const [, weak, opaque = ''] = m;
    if (weak === undefined) versions.add(opaque.split('-')[0] ?? '');
  }
  return { any: false, versions };
}

/** A version sent in a body (a batch operation's `version`): bare as reads show it, or an ETag. */
export function ifMatchOfVersion(version: string): IfMatch {
  if (version.trim().startsWith('"') || version.trim().startsWith('W/')) {
    const parsed = parseIfMatch(version);
    if (parsed) return parsed;
  }
  return { any: false, versions: new Set([version.split('-')[0] ?? '']) };
}

function badIfMatch(why: string): BadRequestError {
  return new BadRequestError(`If-Match ${why}`, 'bad_request');
}

/** Whether the version in place is one the header names. */
export function ifMatchAccepts(ifMatch: IfMatch, version: string): boolean {
  return ifMatch.any || ifMatch.versions.has(version);
}

/** A stored document's version: the time of the write that put it down. */
export function versionOf(doc: { modified_at: Date } | Date): string {
  return String((doc instanceof Date ? doc : doc.modified_at).getTime());
}

/** The strong ETag of a version alone (write answers; reads add a digest of their body). */
export function versionTag(version: string): string {
  return `"${version}"`;
}

/** 412: the request was based on another version than the one in place; nothing was written. */
export function versionConflict(what: string, current: { modified_at: Date; modified_by?: string | null }): HttpError {
  const version = versionOf(current);
  const by = current.modified_by ?? null;
  return new HttpError(
    412,
    `${what} was changed since the version this request names (If-Match): the latest version is ${version}, ` +
      `written at ${current.modified_at.toISOString()}${by === null ? '' : ` by ${by}`}; nothing was written. ` +
      'Read it again and reapply your change, or send its version to overwrite it.',
    'version_conflict',
    {
      headers: { ETag: versionTag(version) },
      current: { version, modified_at: current.modified_at.toISOString(), modified_by: by },
    },
  );
}

/** A write that applies only to versions it accepts: any other version in place throws `otherwise`'s error. */
export interface VersionGuard {
  accepts: (current: ObjectDoc) => boolean;
  otherwise: (current: ObjectDoc) => Error;
}

/** The guard of a request's If-Match (or a batch operation's `version`), or none without one. */
export function objectGuard(ifMatch: IfMatch | null, id: string): VersionGuard | undefined {
  if (ifMatch === null) return undefined;
  return {
    accepts: (current) => ifMatchAccepts(ifMatch, versionOf(current)),
    otherwise: (current) => versionConflict(`Object ${id}`, current),
  };
}

/** A guard that accepts one version only, by its time (merge requests publish what they recorded). */
export function exactVersion(at: Date, otherwise: (current: ObjectDoc) => Error): VersionGuard {
  return { accepts: (current) => current.modified_at.getTime() === at.getTime(), otherwise };
}

/** Strictly after the current version, so versions (and the revisions named by them) never share a time. */
export function nextVersionTime(current: Pick<ObjectDoc, 'modified_at'>, now = Date.now()): Date {
  return new Date(Math.max(now, current.modified_at.getTime() + 1));
}
