import type { Db } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { BadRequestError } from '../errors/http-errors.js';
import type { ErrorCode } from '../errors/codes.js';
import { errorDetail, translateError } from '../errors/translate.js';
import type { BatchRequest } from '../types/bodies.generated.js';
import { assertValid } from '../validation/ajv-messages.js';
import type { MetadataValidators } from '../validation/metadata-schema.js';
import { createObject, removeObject, updateObject } from './object-writes.js';

/** One operation as BatchRequest.json admits it; `object` is checked by the write it goes to. */
type Operation = BatchRequest['operations'][number];

/** One operation's outcome: the status it alone would have answered, with its Object or a failure. */
export type BatchResult<Obj = ObjectDoc> =
  | { method: string; status: number; object: Obj }
  | { method: string; status: number; message: string }
  | { method: string; status: number; code: ErrorCode; message: string };

/** A field the method needs; without it the operation fails alone with a 400. */
function required<T>(value: T | undefined, field: 'object_id' | 'object', method: string): T {
  if (value === undefined) throw new BadRequestError(`${field} is required for method "${method}"`, 'invalid_body');
  return value;
}

async function apply(db: Db, validators: MetadataValidators, bucket: BucketDoc, op: Operation): Promise<BatchResult> {
  const method = op.method ?? '';
  switch (op.method) {
    case 'add':
      return {
        method,
        status: 200,
        object: await createObject(db, validators, bucket, required(op.object, 'object', method)),
      };
    case 'edit': {
      const id = required(op.object_id, 'object_id', method);
      const object = required(op.object, 'object', method);
      return { method, status: 200, object: await updateObject(db, validators, bucket, id, object) };
    }
    case 'delete': {
      const id = required(op.object_id, 'object_id', method);
      await removeObject(db, bucket, id);
      return { method, status: 200, message: `Object with id '${id}' deleted successfully from bucket.` };
    }
    default:
      throw new BadRequestError(
        `method must be add, edit or delete, got ${JSON.stringify(op.method ?? null)}`,
        'invalid_body',
      );
  }
}

/**
 * Applies each operation on its own, in order: one failing never undoes or blocks another.
 * Each result carries the status that operation alone would have answered.
 */
export async function runBatch(
  db: Db,
  validators: MetadataValidators,
  bucket: BucketDoc,
  body: unknown,
  log: (m: string) => void,
): Promise<BatchResult[]> {
  assertValid('BatchRequest', body, 'body');
  const results: BatchResult[] = [];
  for (const op of body.operations) {
    try {
      results.push(await apply(db, validators, bucket, op));
    } catch (err) {
      // Each operation answers what the same request alone would have answered.
      const failure = translateError(err);
      if (failure.status >= 500) log(`batch operation failed: ${errorDetail(err)}`);
      results.push({ method: op.method ?? '', status: failure.status, code: failure.code, message: failure.message });
    }
  }
  return results;
}
