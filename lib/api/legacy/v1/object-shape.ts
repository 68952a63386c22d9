import type { ObjectTypeDoc, RevisionDoc } from '../../../db/collections.js';
import type { ProjectedApiObject, RenderContext } from '../../../render/objects.js';
import { renderObjectType } from '../../../render/object-types.js';
import { renderRevision } from '../../../render/revisions.js';
import { isPlainObject } from '../../../util/values.js';
import { v1Metafields } from './metafield-shape.js';
import { typeWithOwn } from '../../../metafields/own.js';

export type V1Object = Record<string, unknown>;

/** Related Objects inside metadata take the v1 shape too (without their own Metafield list). */
function v1Metadata(metadata: Record<string, unknown>, type: ObjectTypeDoc | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = { ...metadata };
  for (const m of type?.metafields ?? []) {
    const v = out[m.key];
    if (m.type === 'object' && isPlainObject(v)) out[m.key] = toV1Object(v, undefined, true);
    if (m.type === 'objects' && Array.isArray(v))
      out[m.key] = v.map((o: unknown) => (isPlainObject(o) ? toV1Object(o, undefined, true) : o));
  }
  return out;
}

/**
 * A v3-rendered Object in the v1 shape: `_id`, `type_slug`, beside `metadata` the type's
 * Metafields as an array, each with its value in the v1 form (metafield-shape.ts; left out with
 * hide_metafields=true), and the
 * display `options`, which this service keeps on the Object type.
 */
export function toV1Object(
  o: ProjectedApiObject | Record<string, unknown>,
  type: ObjectTypeDoc | undefined,
  hideMetafields: boolean,
): V1Object {
  // v1 has no conditional writes, so it keeps its shape without the version.
  const { id, type: typeSlug, metadata, version: _version, ...rest } = o;
  const out: V1Object = {};
  if (id !== undefined) out._id = id;
  if (typeSlug !== undefined) out.type_slug = typeSlug;
  Object.assign(out, rest);
  if (type) out.options = renderObjectType(type).options;
  if (!isPlainObject(metadata)) return out;
  out.metadata = v1Metadata(metadata, type);
  if (!hideMetafields && type) {
    out.metafields = v1Metafields(type.metafields, metadata, (r) => toV1Object(r, undefined, true));
  }
  return out;
}

/** A revision as v1 shows it: the Object as it was (`_id` the Object's), plus the revision's own id. */
export function toV1Revision(rev: RevisionDoc, ctx: RenderContext, hideMetafields: boolean): V1Object {
  const { id, object_id, ...rest } = renderRevision(rev, ctx);
  const type = ctx.types.get(rev.type);
  const shaped = toV1Object({ ...rest, id: object_id }, type && typeWithOwn(type, rev.own_metafields), hideMetafields);
  return { ...shaped, revision_id: id };
}

/** v1 names the Object type's id `_id`. */
export function toV1ObjectType(t: ObjectTypeDoc): Record<string, unknown> {
  const { id, version: _version, ...rest } = renderObjectType(t);
  return { _id: id, ...rest };
}
