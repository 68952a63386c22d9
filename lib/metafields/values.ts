import { isObjectId, objectIdFromHex } from '../util/object-id.js';
import { isPlainObject } from '../util/plain-object.js';

/** "", null and a missing value all mean "no value" on write (json excepted, see MetafieldKind). */
export function isUnset(value: unknown): value is '' | null | undefined {
  return value === '' || value === null || value === undefined;
}

/** A client's id text as the ObjectId stored for it; anything else unchanged. */
export function toObjectId(value: unknown): unknown {
  if (isObjectId(value) || typeof value !== 'string') return value;
  return objectIdFromHex(value) ?? value;
}

/** JSON-ready copy: ObjectIds become hex strings at any depth; everything else is unchanged. */
export function passThrough(value: unknown): unknown {
  if (isObjectId(value)) return value.toHexString();
  if (Array.isArray(value)) return value.map(passThrough);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, passThrough(v)]));
  return value;
}

export function joinPath(prefix: string, key: string): string {
  return prefix === '' ? key : `${prefix}.${key}`;
}

/** Own properties only, so keys such as "constructor" never resolve to inherited members. */
export function ownValue(record: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
