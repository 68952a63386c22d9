import type { Request } from 'express';
import type { Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import type { BucketAccess } from '../routes/access.js';
import { renderObjectType } from '../render/object-types.js';
import { findObjectType } from '../store/type-reads.js';
import { isPlainObject } from '../util/values.js';
import { bodyOf, valueAt } from './declared-values.js';

/** Fields of a v1 edit body besides `metafields` that name the type or carry a key, and change nothing. */
const V1_NAMING = ['slug', 'write_key', 'read_key'];

/** JSON with object keys sorted, so two equal definitions compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return value === undefined ? 'null' : JSON.stringify(value);
}

const why = (detail: string) => `the sort_metafields permission only reorders an Object type's Metafields: ${detail}`;

/**
 * Why an Object type write by an editor holding `sort_metafields` is more than a reorder, or null.
 * A reorder is an edit whose body has only `metafields`, holding the type's Metafields exactly
 * as a read of the type shows them, in another order. Creating, deleting or changing anything
 * else stays with developers and admins.
 */
export async function reorderRefusal(db: Db, bucket: BucketDoc, req: Request, access: BucketAccess) {
  if (access.typeEdit === undefined) return why('it may not create or delete Object types');
  const body = bodyOf(req);
  // Where the body names the type (v1), its naming fields are no change; elsewhere `slug` renames.
  const allowed = ['metafields', ...('body' in access.typeEdit ? V1_NAMING : [])];
  const other = Object.keys(body).filter((k) => !allowed.includes(k));
  if (other.length > 0) return why(`it may not change ${other.join(', ')}`);
  const slug = valueAt(req, access.typeEdit);
  const type = typeof slug === 'string' ? await findObjectType(db, bucket, slug) : null;
  // An absent type touches nothing: the route answers its 404 as for any other role.
  if (!type) return null;
  const current = new Map(renderObjectType(type).metafields.map((m) => [m.key, canonical(m)]));
  const sent: unknown = body.metafields;
  if (!Array.isArray(sent) || sent.length !== current.size)
    return why(`send all ${String(current.size)} of its Metafields, in the new order`);
  const changed = sent.filter((m) => !isPlainObject(m) || current.get(String(m.key)) !== canonical(m));
  const keys = new Set(sent.map((m) => (isPlainObject(m) ? m.key : undefined)));
  if (changed.length > 0 || keys.size !== current.size)
    return why('each Metafield must be sent exactly as a read of the type shows it');
  return null;
}
