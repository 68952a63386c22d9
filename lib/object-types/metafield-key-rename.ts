import type { Db } from 'mongodb';
import { objectsCollection, objectTypesCollection, type BucketDoc, type ObjectTypeDoc } from '../db/collections.js';
import { BadRequestError, HttpError } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import { finishChange, type EventDeps } from '../events/domain-events.js';
import { readOptions } from '../db/service-db.js';
import { assertValid } from '../validation/ajv-messages.js';
import { completeKeyRename } from './metafield-key-move.js';
import { finishPendingRenames } from './object-type-rename.js';
import { getObjectType } from '../store/type-reads.js';
import { withTypeWriteLease } from './type-write-lease.js';

export interface KeyRenamed {
  type: ObjectTypeDoc;
  objectsChanged: number;
}

function keyTaken(message: string): HttpError {
  return new HttpError(409, message, 'conflict');
}

/**
 * Refusals that need the database: an Object's own Metafield (lib/metafields/own.ts) of key `to`
 * keeps its value at `metadata.<to>` too, so the type's values would land on it.
 */
async function checkOwnKeys(db: Db, type: ObjectTypeDoc, to: string): Promise<void> {
  const owning = await objectsCollection(db).countDocuments(
    { bucket_id: type.bucket_id, type: type.slug, 'own_metafields.key': to },
    readOptions(db),
  );
  if (owning > 0)
    throw keyTaken(
      `${String(owning)} Object${owning === 1 ? '' : 's'} of type '${type.slug}' ha${owning === 1 ? 's an own' : 've own'} ` +
        `Metafield with key '${to}'; rename or remove ${owning === 1 ? 'it' : 'them'} first`,
    );
}

/**
 * POST …/metafields/:key/rename: the top-level Metafield `from` of the type takes the key the
 * body names, and every Object's value moves with it (metafield-key-move.ts says how, and in
 * which order, so a crash at any point is finished by the next type write). Nested keys are not
 * renamed here: a repeater's items each hold their own copy of its fields, and values under a
 * parent sit inside the parent's value, so moving them is a rewrite of each Object's metadata
 * rather than one `$rename` per view.
 */
export async function renameMetafieldKey(
  deps: EventDeps,
  bucket: BucketDoc,
  typeSlug: string,
  from: string,
  input: unknown,
): Promise<KeyRenamed> {
  assertValid('MetafieldKeyRename', input, 'body');
  const to = input.key;
  const { db } = deps;
  return withTypeWriteLease(db, bucket._id, async (lease) => {
    await finishPendingRenames(db, bucket._id, lease);
    const current = await getObjectType(db, bucket, typeSlug);
    const index = current.metafields.findIndex((m) => m.key === from);
    if (index < 0) throw notFound('metafield', from, bucket.slug);
    if (to === from) throw new BadRequestError(`The Metafield already has the key '${to}'`, 'invalid_body');
    const taken = current.metafields.find((m) => m.key === to);
    if (taken)
      throw keyTaken(`Object type '${current.slug}' already has a Metafield with key '${to}' ("${taken.title}")`);
    await checkOwnKeys(db, current, to);
    const metafields = current.metafields.map((m, i) => (i === index ? { ...m, key: to } : m));
    const key_rename = { from, to, pending: true };
    const modified_at = new Date();
    lease.assertHeld();
    // The commit point: conditional on the type as read, so a process ignoring the lease (an older
    // version mid-deploy) that changed it meanwhile is not overwritten.
    const committed = await objectTypesCollection(db).updateOne(
      { _id: current._id, slug: current.slug, modified_at: current.modified_at },
      { $set: { metafields, key_rename, modified_at } },
    );
    if (committed.matchedCount === 0)
      throw new HttpError(
        409,
        `Object type '${current.slug}' changed while this rename ran; retry the request`,
        'conflict',
      );
    const type: ObjectTypeDoc = { ...current, metafields, key_rename, modified_at };
    const objectsChanged = await completeKeyRename(db, type, lease);
    const doc = { ...type, key_rename: { ...key_rename, pending: false } };
    await finishChange(deps, bucket, { type: 'object_type.edited', doc });
    return { type: doc, objectsChanged };
  });
}
