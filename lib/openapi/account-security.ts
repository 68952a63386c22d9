import { isPlainObject } from '../util/values.js';

const KEYED = new Set(['readKey', 'writeKey']);
const FORBIDDEN = {
  description: "The account token is valid, but the account's role in the Bucket does not allow this (code forbidden).",
  content: { 'application/json': { schema: { $ref: 'Error' } } },
};

/**
 * Wherever a Bucket key is accepted, a Bucket user's account token is too, within its role
 * (lib/middleware/admit-member.ts): one rule, so it is added here rather than in every path file.
 * So is no credential at all (the empty requirement `{}`): a Bucket without a key of that kind
 * accepts the call without one, and the legacy write forms may carry the write key in the body
 * or form field `write_key`, which OpenAPI cannot name as a security scheme.
 */
export function addAccountSecurity(paths: Record<string, unknown>): void {
  for (const item of Object.values(paths)) {
    if (!isPlainObject(item)) continue;
    for (const operation of Object.values(item)) {
      if (!isPlainObject(operation) || !Array.isArray(operation.security)) continue;
      const security: unknown[] = operation.security;
      const keyed = security.some((s) => isPlainObject(s) && Object.keys(s).some((k) => KEYED.has(k)));
      if (!keyed) continue;
      const keyless = security.some((s) => isPlainObject(s) && Object.keys(s).length === 0);
      operation.security = [...security, { accountToken: [] }, ...(keyless ? [] : [{}])];
      if (isPlainObject(operation.responses)) operation.responses['403'] ??= FORBIDDEN;
    }
  }
}
