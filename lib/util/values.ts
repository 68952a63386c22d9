// What kind of value a value is (an ObjectId, a plain record, none at all), and the plain
// conversions of stored and client values that follow from it.
import { ObjectId } from 'mongodb';

/** An Object id as clients write it: 24 hexadecimal characters, either case. */
export const OBJECT_ID_PATTERN = '^[0-9a-fA-F]{24}$';
const OBJECT_ID_HEX = new RegExp(OBJECT_ID_PATTERN);

export function isObjectIdHex(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID_HEX.test(value);
}

/** The ObjectId a client's id names, or null when the text cannot name one. */
export function objectIdFromHex(text: string): ObjectId | null {
  return isObjectIdHex(text) ? new ObjectId(text) : null;
}

/**
 * Duck-typed as well as instanceof: a second copy of bson (another driver version in the tree)
 * produces ObjectIds that fail instanceof but must still be recognised.
 */
export function isObjectId(value: unknown): value is ObjectId {
  if (value instanceof ObjectId) return true;
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { _bsontype?: unknown })._bsontype === 'ObjectId' &&
    typeof (value as { toHexString?: unknown }).toHexString === 'function'
  );
}

/**
 * A record of keys: an object literal, a parsed JSON object or a prototype-less map. Arrays,
 * ObjectIds, Dates and other class instances are not, so walkers over stored documents never
 * descend into BSON values, and checks over parsed JSON reject arrays where objects belong.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

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
