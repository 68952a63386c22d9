import type { ObjectDoc } from '../../db/collections.js';
import { ifMatchAccepts, versionConflict, versionOf, type IfMatch } from '../../http/if-match.js';

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
