import { can, type BucketInfo } from './bucket';

/**
 * What the signed-in user may do beyond the section links (bucket.ts `can`): Studio shows only
 * controls the API would accept from this role, so nobody meets a raw 403 for a button it offered.
 */

/** Enough of an Object to tell whether a version of it has gone live. */
interface Liveness {
  status: string;
  published_at?: string | null;
}

/** Whether the Object has been live: a draft may lie over a live version (status "draft" then). */
export function hasBeenLive(object: Liveness): boolean {
  return object.status === 'published' || Boolean(object.published_at);
}

export const may = {
  /** A draft-only account may not take live content down: it deletes only Objects never published. */
  deleteObject: (b: BucketInfo, object: Liveness) => !b.draftOnly || !hasBeenLive(object),
  /** The batch route is closed whole to draft-only accounts (it could publish or delete live content). */
  batch: (b: BucketInfo) => !b.draftOnly,
};

/** Whether the user may open a section of the Bucket (`rest`: the path below it), reached by link or by URL. */
export function pageAllowed(b: BucketInfo, section: string, rest: readonly string[]): boolean {
  switch (section) {
    case 'users':
      return can.users(b);
    case 'webhooks':
      return can.webhooks(b);
    case 'types':
      // Everyone reads the list of types; the editor behind it changes them.
      return rest.length === 0 || can.editTypes(b);
    default:
      return true;
  }
}
