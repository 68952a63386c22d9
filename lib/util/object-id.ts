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
