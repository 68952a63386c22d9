import type { ObjectTypeDoc, RevisionDoc } from '../../db/collections.js';
import type { ProjectedApiObject, RenderContext } from '../../serializers/object.js';
import { renderObjectType } from '../../serializers/object-type.js';
import { renderRevision } from '../../serializers/revision.js';
import { isPlainObject } from '../../util/plain-object.js';

export type V1Object = Record<string, unknown>;

/** A related Object rendered at depth: its id is what v1 calls the Metafield's value. */
function idOf(value: unknown): unknown {
  return isPlainObject(value) && typeof value.id === 'string' ? value.id : value;
}

/** The v1 write shape of a value: an id for `object`, comma-separated ids for `objects`. */
function v1Value(type: string, value: unknown): unknown {
  if (type === 'object') return idOf(value);
  if (type === 'objects' && Array.isArray(value)) return value.map(idOf).join(',');
  return value;
}

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
 * Metafields as an array, each with its value (left out with hide_metafields=true), and the
 * display `options`, which this service keeps on the Object type.
 */
export function toV1Object(
  o: ProjectedApiObject | Record<string, unknown>,
  type: ObjectTypeDoc | undefined,
  hideMetafields: boolean,
): V1Object {
  const { id, type: typeSlug, metadata, ...rest } = o;
  const out: V1Object = {};
  if (id !== undefined) out._id = id;
  if (typeSlug !== undefined) out.type_slug = typeSlug;
  Object.assign(out, rest);
  if (type) out.options = renderObjectType(type).options;
  if (!isPlainObject(metadata)) return out;
  out.metadata = v1Metadata(metadata, type);
  if (!hideMetafields && type) {
    out.metafields = type.metafields.map((m) => ({ ...m, value: v1Value(m.type, metadata[m.key] ?? null) }));
  }
  return out;
}

/** A revision as v1 shows it: the Object as it was (`_id` the Object's), plus the revision's own id. */
export function toV1Revision(rev: RevisionDoc, ctx: RenderContext, hideMetafields: boolean): V1Object {
  const { id, object_id, ...rest } = renderRevision(rev, ctx);
  return { ...toV1Object({ ...rest, id: object_id }, ctx.types.get(rev.type), hideMetafields), revision_id: id };
}

/** v1 names the Object type's id `_id`. */
export function toV1ObjectType(t: ObjectTypeDoc): Record<string, unknown> {
  const { id, ...rest } = renderObjectType(t);
  return { _id: id, ...rest };
}
