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
