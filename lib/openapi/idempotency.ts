import { isPlainObject } from '../util/values.js';
import { REPLAYED_HEADER } from '../http/idempotency-headers.js';

/** v3 Bucket paths, their v2 twins and the v1 Bucket paths (as in gate-answers.ts). */
const BUCKET_PATH = /^((\/v2)?\/buckets\/\{slug\}|\/v1\/\{slug\})/;

const KEY_PARAMETER = { $ref: '#/components/parameters/idempotency_key' };

/**
 * Every POST on a Bucket path that writes takes an Idempotency-Key (lib/middleware/idempotency.ts), mounted once
 * for all of them (lib/routes/route-table.ts), so it is described once, here: the header, the
 * replay marker on its successful answers, and its 409 and 422. An operation's own 409 keeps its
 * description; the OpenAPI test checks that exactly the routes taking the key document it.
 */
export function addIdempotencyKeys(paths: Record<string, unknown>): void {
  for (const [path, item] of Object.entries(paths)) {
    if (!BUCKET_PATH.test(path) || !isPlainObject(item) || !isPlainObject(item.post)) continue;
    const operation = item.post;
    // A POST that is not a write (GraphQL, whose queries are POSTed too) says so, and takes none.
    if (operation['x-idempotency-key'] === false) {
      delete operation['x-idempotency-key'];
      continue;
    }
    const parameters: unknown[] = Array.isArray(operation.parameters) ? operation.parameters : [];
    operation.parameters = [...parameters, KEY_PARAMETER];
    const responses = isPlainObject(operation.responses) ? operation.responses : {};
    for (const [status, response] of Object.entries(responses)) {
      if (!status.startsWith('2') || !isPlainObject(response) || '$ref' in response) continue;
      const headers = isPlainObject(response.headers) ? response.headers : {};
      headers[REPLAYED_HEADER] = { $ref: `#/components/headers/${REPLAYED_HEADER}` };
      response.headers = headers;
    }
    responses['409'] ??= { $ref: '#/components/responses/IdempotencyBusy' };
    responses['422'] ??= { $ref: '#/components/responses/IdempotencyKeyReused' };
    operation.responses = responses;
  }
}
