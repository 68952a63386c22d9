import type { MergeRequestDoc } from './collection.js';

/** A merge request as the v3 API answers it (schemas/MergeRequest.json). */
export interface ApiMergeRequest {
  id: string;
  title: string;
  status: MergeRequestDoc['status'];
  objects: { object_id: string; revision_id: string; recorded_at: string; published_at: string | null }[];
  created_at: string;
  modified_at: string;
  merged_at: string | null;
  closed_at: string | null;
  created_by: string | null;
  merged_by: string | null;
  closed_by: string | null;
}

export function renderMergeRequest(doc: MergeRequestDoc): ApiMergeRequest {
  return {
    id: doc._id.toHexString(),
    title: doc.title,
    status: doc.status,
    objects: doc.items.map((i) => ({
      object_id: i.object_id.toHexString(),
      revision_id: i.revision_id.toHexString(),
      recorded_at: i.version.toISOString(),
      published_at: i.published_at?.toISOString() ?? null,
    })),
    created_at: doc.created_at.toISOString(),
    modified_at: doc.modified_at.toISOString(),
    merged_at: doc.merged_at?.toISOString() ?? null,
    closed_at: doc.closed_at?.toISOString() ?? null,
    created_by: doc.created_by ?? null,
    merged_by: doc.merged_by ?? null,
    closed_by: doc.closed_by ?? null,
  };
}
