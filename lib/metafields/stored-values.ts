import type { ObjectId } from 'mongodb';
import type { Metafield, MetafieldType } from '../types/metafield.js';
import { kindOf } from './kinds.js';
import { isUnset } from '../util/values.js';
import { passThrough } from '../util/values.js';
import { toObjectId } from '../util/values.js';
import { ownValue } from '../util/values.js';
import { walkMetafields } from './walk.js';
import { isObjectId, isObjectIdHex } from '../util/values.js';
import { isPlainObject } from '../util/values.js';
import type { ApiMetadata, MetadataRenderContext } from './render-types.js';

export type { ApiFileUrls, ApiMetadata, ApiSelectValue, MetadataRenderContext } from './render-types.js';

/*
 * Stored form (see ObjectDoc): each kind's `store` (lib/metafields/kinds.ts): object → ObjectId,
 * objects → ObjectId[], select-dropdown → the option key, parent → nested object, repeater →
 * array of objects; everything else as sent. "" and null mean "no value" and are stored as the
 * kind's empty value (null, [], false or ""), the same value a read answers, so a query for
 * what a client sees finds it. json keeps "" and null: they are JSON values of their own.
 */

/**
 * Validated v3 input → stored form, written onto `base` (left as it was: a copy is returned).
 * Only the keys sent change, at every depth of parents, so a patch stays a patch. A repeater's
 * array replaces the stored one whole, and the keys an item does not send get their defaults.
 */
export function toStoredMetadata(
  metafields: Metafield[],
  input: Record<string, unknown>,
  base: Record<string, unknown> = {},
): Record<string, unknown> {
  const out = { ...base };
  walkMetafields(metafields, input, {
    enter: ({ mf }) => kindOf(mf).nested?.repeats !== true,
    leaf: ({ mf, value, path }) => {
      setAt(out, path.split('.').slice(0, -1), mf.key, storedValue(mf, value));
    },
  });
  return out;
}

/** Writes `value` under `key` below the parents, copying each parent object so that none of `base` changes. */
function setAt(target: Record<string, unknown>, parents: string[], key: string, value: unknown): void {
  let node = target;
  for (const parent of parents) {
    const child = ownValue(node, parent);
    const copy = isPlainObject(child) ? { ...child } : {};
    node[parent] = copy;
    node = copy;
  }
  node[key] = value;
}

function storedValue(mf: Metafield, value: unknown): unknown {
  const kind = kindOf(mf);
  if (isUnset(value) && kind.emptyIsValue !== true) return kind.empty();
  if (kind.nested?.repeats === true && Array.isArray(value)) {
    const fields = kind.nested.fields(mf);
    return value.map((item: unknown) =>
      isPlainObject(item) ? toStoredMetadata(fields, item, defaultMetadata(fields)) : item,
    );
  }
  return kind.store ? kind.store(value, mf) : value;
}

/**
 * The stored values an Object gets on create for keys not sent: each Metafield's default
 * `value` in stored form (its kind's empty value when it has none), parent → its children's
 * defaults, repeater → [].
 */
export function defaultMetadata(metafields: Metafield[]): Record<string, unknown> {
  return walkMetafields(
    metafields,
    {},
    {
      absent: true,
      // Kinds without a default value (repeater) start empty.
      leaf: ({ mf }) => (kindOf(mf).definition.value === false ? kindOf(mf).empty() : storedValue(mf, mf.value)),
    },
  );
}

/** Each related Object id a value holds, with where it is and which Metafield holds it. */
function eachRelated(
  metafields: Metafield[],
  values: Record<string, unknown>,
  found: (id: unknown, mf: Metafield, path: string) => void,
): void {
  walkMetafields(metafields, values, {
    leaf: ({ mf, value, path }) => {
      for (const id of kindOf(mf).relatedIds?.(value) ?? []) found(id, mf, path);
    },
  });
}

/**
 * Every related Object id in stored metadata (top level, parent children, repeater items),
 * deduplicated, first occurrence first. Only Metafields the type still defines as relationships
 * count: a removed Metafield's ids are no longer relationships.
 */
export function collectRefs(metafields: Metafield[], stored: Record<string, unknown>): ObjectId[] {
  const found = new Map<string, ObjectId>();
  eachRelated(metafields, stored, (value) => {
    const id = toObjectId(value);
    if (isObjectId(id) && !found.has(id.toHexString())) found.set(id.toHexString(), id);
  });
  return [...found.values()];
}

export interface RelationshipRef {
  /** Dotted key path of the Metafield ("author", "seo.author", "sections.0.author"). */
  path: string;
  /** Lower-case hex, so it compares equal to ObjectId#toHexString. */
  id: string;
  objectType: string | undefined;
  metafieldType: MetafieldType;
}

/**
 * Every relationship id in validated v3 input, with the Object type it must belong to, so the
 * service can check them all with one query. An objects value yields one entry per id, all
 * with the Metafield's path.
 */
export function relationshipRefs(metafields: Metafield[], input: Record<string, unknown>): RelationshipRef[] {
  const refs: RelationshipRef[] = [];
  eachRelated(metafields, input, (value, mf, path) => {
    const hex = isObjectId(value) ? value.toHexString() : isObjectIdHex(value) ? value.toLowerCase() : null;
    if (hex !== null) refs.push({ path, id: hex, objectType: mf.object_type, metafieldType: mf.type });
  });
  return refs;
}

/**
 * Stored metadata → v3 response, each value by its kind's `render` (lib/metafields/kinds.ts):
 * - a Metafield without a value (absent, "" or null as stored) answers its kind's empty value:
 *   null, [], false or "" (json keeps a stored "" or null: they are its values);
 * - select-dropdown → { key, value }; a key no longer among the options answers value = key;
 * - file → { url, imgproc_url }, or null when the media item is gone;
 * - object/objects → hex ids, or ctx.renderRelated(doc) where populate expanded them;
 * - only the type's current Metafields are answered: values of Metafields removed from the type
 *   stay stored (revisions keep them, and they come back if the Metafield does) but are not shown.
 * Never throws on a stored value whose shape predates a change of the Metafield's type: values
 * that do not fit the current type are passed through.
 */
export function renderMetadata(
  metafields: Metafield[],
  stored: Record<string, unknown>,
  ctx: MetadataRenderContext,
): ApiMetadata {
  return walkMetafields(metafields, stored, {
    absent: true,
    leaf: ({ mf, value, present }) => renderValue(mf, value, present, ctx),
  });
}

function renderValue(mf: Metafield, value: unknown, present: boolean, ctx: MetadataRenderContext): unknown {
  const kind = kindOf(mf);
  if (isUnset(value) && !(kind.emptyIsValue === true && present)) return kind.empty();
  return kind.render ? kind.render(value, mf, ctx) : passThrough(value);
}
