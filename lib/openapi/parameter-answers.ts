import { isPlainObject } from '../util/values.js';

/**
 * Every route reads its query parameters before anything else (`pretty` at least, see
 * lib/http/request.ts), so every operation may answer 400 `invalid_parameter`.
 * Operations that describe a 400 of their own keep it; the rest get the shared error answer,
 * so a generated client knows the error body of each.
 */
export function addParameterAnswers(paths: Record<string, unknown>): void {
  // `/status` and `/openapi.json` too: the spec names only 200 and 500 there, but a malformed
  // `pretty` is refused on them as everywhere, and the document says what the service does.
  for (const item of Object.values(paths)) {
    if (!isPlainObject(item)) continue;
    for (const operation of Object.values(item)) {
      const responses = isPlainObject(operation) ? operation.responses : undefined;
      if (isPlainObject(responses)) responses['400'] ??= { $ref: '#/components/responses/Error' };
    }
  }
}
