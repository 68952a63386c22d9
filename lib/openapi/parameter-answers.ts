import { isPlainObject } from '../util/plain-object.js';

/**
 * The spec's word: `/status` and `/openapi.json` answer only 200 and 500, so they are described
 * without a 400 (though a malformed `pretty` there is still refused, as everywhere).
 */
const SPEC_WITHOUT_400 = new Set(['/status', '/openapi.json']);

/**
 * Every route reads its query parameters before anything else (`pretty` at least, see
 * lib/http/read-params.ts), so every operation may answer 400 `invalid_parameter`.
 * Operations that describe a 400 of their own keep it; the rest get the shared error answer,
 * so a generated client knows the error body of each.
 */
export function addParameterAnswers(paths: Record<string, unknown>): void {
  for (const [path, item] of Object.entries(paths)) {
    if (SPEC_WITHOUT_400.has(path) || !isPlainObject(item)) continue;
    for (const operation of Object.values(item)) {
      const responses = isPlainObject(operation) ? operation.responses : undefined;
      if (isPlainObject(responses)) responses['400'] ??= { $ref: '#/components/responses/Error' };
    }
  }
}
