import type { Response } from 'express';
import { ObjectId, type Db } from 'mongodb';
import { objectsCollection, type BucketDoc } from '../db/collections.js';
import { readOptions } from '../db/service-db.js';
import { isPlainObject } from '../util/values.js';
import { forbidden, memberOf, viaMember } from './request-account.js';

/**
 * The Object types a request may touch: a contributor's `object_types` when it came in through
 * that membership, null (every type) for a Bucket key and every other role. Lists and lookups
 * narrow to it, so a contributor never sees an Object outside it, whatever the route.
 */
export function typeScopeOf(res: Response): readonly string[] | null {
  const member = memberOf(res);
  return viaMember(res) && member?.role === 'contributor' ? member.object_types : null;
}

export function outsideScope(scope: readonly string[], type: unknown): boolean {
  return typeof type !== 'string' || !scope.includes(type);
}

export function scopeMessage(scope: readonly string[]): string {
  return `the contributor role is limited to the Object types ${scope.length > 0 ? scope.join(', ') : '(none)'}`;
}

/** An Object's type by id, or undefined when the id names no Object of the Bucket (the write then answers 404). */
export async function typeOfObject(db: Db, bucket: BucketDoc, id: unknown): Promise<string | undefined> {
  if (typeof id !== 'string' || !ObjectId.isValid(id)) return undefined;
  const doc = await objectsCollection(db).findOne(
    { _id: new ObjectId(id), bucket_id: bucket._id },
    { ...readOptions(db), projection: { type: 1 } },
  );
  return doc?.type;
}

/** One batch operation as far as its scope check reads it (the batch validates the rest). */
interface ScopedOperation {
  method?: string;
  object_id?: string;
  object?: unknown;
}

/**
 * The check a batch runs before each operation of a scoped request: an add must name a type of
 * the scope, an edit or delete must touch an Object of one (and an edit may not move it out).
 * Null when the request has no scope. The 403 fails that operation alone, named like its others.
 */
export function batchScopeCheck(
  db: Db,
  bucket: BucketDoc,
  scope: readonly string[] | null,
): ((op: ScopedOperation) => Promise<void>) | null {
  if (scope === null) return null;
  return async (op) => {
    const body = isPlainObject(op.object) ? op.object : {};
    const types: unknown[] = [];
    if (op.method === 'add' || body.type !== undefined) types.push(body.type);
    if (op.method !== 'add') {
      const found = await typeOfObject(db, bucket, op.object_id);
      if (found !== undefined) types.push(found);
    }
    if (types.some((t) => outsideScope(scope, t))) throw forbidden(bucket.slug, scopeMessage(scope));
  };
}
