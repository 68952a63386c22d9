import type { Picked } from '../query/props.js';
import type { RevisionDoc } from '../db/collections.js';
import { renderMetadata, type ApiMetadata } from '../metafields/stored-values.js';
import type { RenderContext } from './objects.js';
import { effectiveMetafields } from '../metafields/own.js';

/** A revision as the v3 API answers it (schemas/Revision.json). */
export type ApiRevision = {
  id: string;
  object_id: string;
  type: string;
  slug: string;
  title: string;
  content: string;
  metadata: ApiMetadata;
  status: RevisionDoc['status'];
  created_at: string;
  created_by: string | null;
  reason: RevisionDoc['reason'];
};

/** Stored revision → v3 JSON, metadata rendered by the type's current Metafields and the Object's own. */
export function renderRevision(rev: RevisionDoc, ctx: RenderContext): ApiRevision {
  const type = ctx.types.get(rev.type);
  return {
    id: rev._id.toHexString(),
    object_id: rev.object_id.toHexString(),
    type: rev.type,
    slug: rev.slug,
    title: rev.title,
    content: rev.content,
    metadata: renderMetadata(effectiveMetafields(type?.metafields ?? [], rev.own_metafields), rev.metadata, {
      fileUrls: ctx.fileUrls,
      renderRelated: (v) => v,
    }),
    status: rev.status,
    created_at: rev.created_at.toISOString(),
    created_by: rev.created_by,
    reason: rev.reason,
  };
}

/* Bodies of the revision responses (schemas/RevisionResponse.json, RevisionList.json). */
export type RevisionResponse<Item = ApiRevision> = { revision: Item };
export type RevisionList<Item = Picked> = { revisions: Item[]; total: number };
