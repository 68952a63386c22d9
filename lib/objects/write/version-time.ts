import type { ObjectDoc } from '../../db/collections.js';

/** Strictly after the current version, so versions (and the revisions named by them) never share a time. */
export function nextVersionTime(current: Pick<ObjectDoc, 'modified_at'>, now = Date.now()): Date {
  return new Date(Math.max(now, current.modified_at.getTime() + 1));
}
