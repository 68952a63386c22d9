import type { Db } from 'mongodb';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { BadRequestError, HttpError } from '../errors/http-errors.js';
import type { BatchRequest } from '../types/bodies.generated.js';
import { assertValid } from '../validation/ajv-messages.js';
import { createObject, removeObject, updateObject } from './object-writes.js';

/** One operation as BatchRequest.json admits it; `object` is checked by the write it goes to. */
type Operation = BatchRequest['operations'][number];

/** One operation's outcome: the status it alone would have answered, with its Object or a message. */
export type BatchResult<Obj = ObjectDoc> =
  { method: string; status: number; object: Obj } | { method: string; status: number; message: string };

/** A field the method needs; without it the operation fails alone with a 400. */
function required<T>(value: T | undefined, field: 'object_id' | 'object', method: string): T {
  if (value === undefined) throw new BadRequestError(`${field} is required for method "${method}"`);
  return value;
}

async function apply(db: Db, bucket: BucketDoc, op: Operation): Promise<BatchResult> {
  const method = op.method ?? '';
  switch (op.method) {
    case 'add':
      return { method, status: 200, object: await createObject(db, bucket, required(op.object, 'object', method)) };
    case 'edit': {
      const id = required(op.object_id, 'object_id', method);
      const object = required(op.object, 'object', method);
      return { method, status: 200, object: await updateObject(db, bucket, id, object) };
    }
    case 'delete': {
      const id = required(op.object_id, 'object_id', method);
      await removeObject(db, bucket, id);
      return { method, status: 200, message: `Object with id '${id}' deleted successfully from bucket.` };
    }
    default:
      throw new BadRequestError(`method must be add, edit or delete, got ${JSON.stringify(op.method ?? null)}`);
  }
}

/**
 * Applies each operation on its own, in order: one failing never undoes or blocks another.
 * Each result carries the status that operation alone would have answered.
 */
export async function runBatch(
  db: Db,
  bucket: BucketDoc,
  body: unknown,
  log: (m: string) => void,
): Promise<BatchResult[]> {
  assertValid('BatchRequest', body, 'body');
  const results: BatchResult[] = [];
  for (const op of body.operations) {
    try {
      results.push(await apply(db, bucket, op));
    } catch (err) {
      if (err instanceof HttpError) {
        results.push({ method: op.method ?? '', status: err.status, message: err.message });
      } else {
        log(`batch operation failed: ${err instanceof Error ? err.stack : String(err)}`);
        results.push({
          method: op.method ?? '',
          status: 500,
          message: 'An internal error occurred for this operation.',
        });
      }
    }
  }
  return results;
}
