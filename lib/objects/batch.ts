import type { ForRequest } from '../http/respond.js';
import type { ApiObject } from '../render/objects.js';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { BadRequestError, type CurrentVersion, type HttpError } from '../errors/http-errors.js';
import { ifMatchOfVersion } from '../http/if-match.js';
import { objectGuard } from '../http/if-match.js';
import type { ErrorCode } from '../errors/codes.js';
import { errorDetail, translateError } from '../errors/translate.js';
import type { BatchRequest } from '../types/bodies.generated.js';
import { assertValid } from '../validation/ajv-messages.js';
import { quote } from '../util/quote.js';
import { removeObject } from './write/object-delete.js';
import { createObject, updateObject, type ObjectWriteDeps } from './write/object-writes.js';

/** One operation as BatchRequest.json admits it; `object` is checked by the write it goes to. */
type Operation = BatchRequest['operations'][number];

/** One operation's outcome: the status it alone would have answered, with its Object or a failure. */
export type BatchResult<Obj = ObjectDoc> =
  | { method: string; status: number; object: Obj }
  | { method: string; status: number; message: string }
  | { method: string; status: number; code: ErrorCode; message: string; current?: CurrentVersion };

/** The guard of an operation's `version` (as If-Match is to a request), or none without one. */
function guardOf(op: Operation, id: string) {
  return objectGuard(op.version === undefined ? null : ifMatchOfVersion(op.version), id);
}

/** A field the method needs; without it the operation fails alone with a 400. */
function required<T>(value: T | undefined, field: 'object_id' | 'object'): T {
  if (value === undefined) throw new BadRequestError(`${field} is required`, 'invalid_body');
  return value;
}

/** The body of each operation sits under `object`, so body paths are worded from there. */
const ROOT = 'object';

const METHODS = new Set(['add', 'edit', 'delete']);

/**
 * A failure's message naming its operation: `operations[3] (add): object.title is required`. A
 * problem list loses its request-level prefix ("Invalid request body"), which the label replaces.
 */
function failureMessage(failure: HttpError, index: number, method: string | undefined): string {
  const label = `operations[${String(index)}]${method !== undefined && METHODS.has(method) ? ` (${method})` : ''}`;
  const problems = failure instanceof BadRequestError ? failure.problems : null;
  const detail = problems ? problems.join('; ') : failure.message;
  return `${label}: ${detail}`;
}

async function apply(deps: ObjectWriteDeps & ForRequest, bucket: BucketDoc, op: Operation): Promise<BatchResult> {
  const method = op.method ?? '';
  switch (op.method) {
    case 'add':
      return {
        method,
        status: 200,
        object: await createObject(deps, bucket, required(op.object, 'object'), { root: ROOT }),
      };
    case 'edit': {
      const id = required(op.object_id, 'object_id');
      const object = required(op.object, 'object');
      const ifVersion = guardOf(op, id);
      return { method, status: 200, object: await updateObject(deps, bucket, id, object, { root: ROOT, ifVersion }) };
    }
    case 'delete': {
      const id = required(op.object_id, 'object_id');
      // Like the DELETE route, a delete notifies only when asked to.
      await removeObject(deps, bucket, id, op.trigger_webhook ?? false, guardOf(op, id));
      return { method, status: 200, message: `Object with id '${id}' deleted successfully from bucket.` };
    }
    default:
      throw new BadRequestError(`method must be add, edit or delete, got ${quote(op.method ?? null)}`, 'invalid_body');
  }
}

/**
 * Applies each operation on its own, in order: one failing never undoes or blocks another.
 * Each result carries the status that operation alone would have answered. `check` runs before
 * each operation (an account's Object-type scope, lib/accounts/type-scope.ts); what it throws
 * fails that operation alone.
 */
export async function runBatch(
  deps: ObjectWriteDeps & ForRequest,
  bucket: BucketDoc,
  body: unknown,
  log: (m: string) => void,
  check: ((op: Operation) => Promise<void>) | null = null,
): Promise<BatchResult[]> {
  assertValid('BatchRequest', body, 'body');
  const results: BatchResult[] = [];
  for (const [index, op] of body.operations.entries()) {
    try {
      if (check) await check(op);
      results.push(await apply(deps, bucket, op));
    } catch (err) {
      // Each operation answers what the same request alone would have answered.
      const failure = translateError(err);
      if (failure.status >= 500) log(`batch operation failed: ${errorDetail(err)}`);
      results.push({
        method: op.method ?? '',
        status: failure.status,
        code: failure.code,
        message: failureMessage(failure, index, op.method),
        ...(failure.current && { current: failure.current }),
      });
    }
  }
  return results;
}

/** The batch answer (schemas/BatchResponse.json): one result per operation, in request order. */
export type BatchResponse = { operations: BatchResult<ApiObject>[] };
