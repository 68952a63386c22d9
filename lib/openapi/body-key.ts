import { isPlainObject } from '../util/plain-object.js';

/** Whether a request body (JSON or form) describes the legacy `write_key` field. */
function takesBodyKey(requestBody: unknown): boolean {
  const content = isPlainObject(requestBody) ? requestBody.content : undefined;
  if (!isPlainObject(content)) return false;
  return Object.values(content).some((media) => {
    const schema = isPlainObject(media) ? media.schema : undefined;
    return isPlainObject(schema) && isPlainObject(schema.properties) && Object.hasOwn(schema.properties, 'write_key');
  });
}

/**
 * The legacy write forms: v1 writes and the upload forms may carry the write key as the body
 * or form field `write_key` instead of a header (lib/middleware/authenticate.ts). OpenAPI has no
 * security scheme in a body, so those operations also list the empty requirement `{}`: a
 * generated client then sends them without an Authorization header, the key in the body.
 * Only where the write key is a credential at all (a `writeKey` requirement).
 */
export function addBodyKeySecurity(paths: Record<string, unknown>): void {
  for (const item of Object.values(paths)) {
    if (!isPlainObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isPlainObject(operation) || !Array.isArray(operation.security) || !takesBodyKey(operation.requestBody))
        continue;
      const security: unknown[] = operation.security;
      // Where only an account token opens the route (Extensions), a body key is not a credential.
      if (!security.some((s) => isPlainObject(s) && Object.hasOwn(s, 'writeKey'))) continue;
      if (!security.some((s) => isPlainObject(s) && Object.keys(s).length === 0))
        operation.security = [...security, {}];
    }
  }
}
