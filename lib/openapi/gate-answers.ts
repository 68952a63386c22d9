import { isPlainObject } from '../util/values.js';

/** v3 Bucket paths, their v2 twins and the v1 Bucket paths: all pass the same gate. */
const BUCKET_PATH = /^((\/v2)?\/buckets\/\{slug\}|\/v1\/\{slug\})/;

const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];

/**
 * Every Bucket route passes the request gate (lib/middleware/request-gate.ts): each of its
 * operations may answer 402 and 429, and its answers carry the RateLimit-* headers. The gate is
 * mounted once for all of them (lib/registry/mount.ts), so it is described once, here, rather
 * than repeated in every path file. A response given by reference keeps its shared definition.
 */
export function addGateAnswers(paths: Record<string, unknown>): void {
  for (const [path, item] of Object.entries(paths)) {
    if (!BUCKET_PATH.test(path) || !isPlainObject(item)) continue;
    for (const operation of Object.values(item)) {
      const responses = isPlainObject(operation) ? operation.responses : undefined;
      if (!isPlainObject(responses)) continue;
      for (const response of Object.values(responses)) {
        if (!isPlainObject(response) || '$ref' in response) continue;
        const headers = isPlainObject(response.headers) ? response.headers : {};
        for (const name of RATE_LIMIT_HEADERS) headers[name] = { $ref: `#/components/headers/${name}` };
        response.headers = headers;
      }
      responses['402'] ??= { $ref: '#/components/responses/PlanLimit' };
      responses['429'] ??= { $ref: '#/components/responses/RateLimited' };
    }
  }
}
