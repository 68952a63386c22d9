import type { ForRequest } from '../http/respond.js';
import type { BucketDoc, RevisionDoc } from '../db/collections.js';
import { collectRefs } from '../metafields/stored-values.js';
import { typeWithOwn } from '../metafields/own.js';
import { assertValid } from '../validation/ajv-messages.js';
import { prepareMetadata } from '../objects/write/object-metadata.js';
import type { ObjectWriteDeps } from '../objects/write/object-writes.js';
import { editObject, type EditPlan } from '../objects/write/object-edit.js';
import { typeForWrite } from '../objects/objects.js';

/**
 * POST revisions: the sent changes, applied to the latest version, become a new draft version.
 * The live version is untouched; `status=any` and preview tokens show the draft, and PATCH with
 * `status: "published"` publishes it. A draft save is an edit: it emits object.edited.
 */
export async function createDraftRevision(
  deps: ObjectWriteDeps & ForRequest,
  bucket: BucketDoc,
  objectId: string,
  input: unknown,
): Promise<RevisionDoc> {
  const { db, validators } = deps;
  assertValid('RevisionCreate', input, 'body');
  const written = await editObject(deps, bucket, objectId, async (current, at): Promise<EditPlan> => {
    const type = await typeForWrite(deps, bucket, current.type);
    const next = { ...current, status: 'draft' as const, modified_at: at };
    if (input.title !== undefined) next.title = input.title;
    if (input.content !== undefined) next.content = input.content;
    // The Object's own Metafields take values here too; only legacy writes define them.
    const effective = typeWithOwn(type, current.own_metafields);
    next.metadata = await prepareMetadata(db, validators, bucket, effective, input.metadata, current.metadata);
    next.refs = collectRefs(effective.metafields, next.metadata);
    return { next, reason: 'draft' };
  });
  return written.revision;
}
