import type { ContentObject } from './types';

/**
 * An Object's status as editors think of it. The API's `status` is the latest version's; an
 * Object whose latest version is a draft may still have a live version under it
 * (`published_modified_at`), which editors call "Published, draft pending".
 */
export type StatusKind = 'published' | 'draft' | 'pending';

export const STATUS_LABELS: Record<StatusKind, string> = {
  published: 'Published',
  draft: 'Draft',
  pending: 'Published, draft pending',
};

type Known = Pick<ContentObject, 'status' | 'published_modified_at'>;

/** Null while a draft's live version is unknown (an answer without `published_modified_at`, as writes give). */
export function statusKind(o: Known): StatusKind | null {
  if (o.status === 'published') return 'published';
  if (o.published_modified_at === undefined) return null;
  return o.published_modified_at === null ? 'draft' : 'pending';
}

/** The label of `o`'s status; a draft whose live version is unknown reads as its API status. */
export function statusLabel(o: Known): string {
  return STATUS_LABELS[statusKind(o) ?? 'draft'];
}
