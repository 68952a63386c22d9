import type { ObjectId } from 'mongodb';
import type { Metafield } from '../db/collections.js';
import { isObjectId, isObjectIdHex, objectIdFromHex } from '../util/object-id.js';
import { isPlainObject } from '../util/plain-object.js';
import { findSelectOption, joinPath, nestedMetafields, optionKey, ownValue } from '../validation/metadata-common.js';

export {
  renderMetadata,
  type ApiFileUrls,
  type ApiMetadata,
  type ApiSelectValue,
  type MetadataRenderContext,
} from './metadata-render.js';

/*
 * Stored form (see ObjectDoc): object → ObjectId, objects → ObjectId[], select-dropdown → the
 * option key, parent → nested object, repeater → array of objects; everything else as sent.
 * Empty values ("" or null) are stored as "" for every type except json, whose null is a real
 * JSON value and is kept. One spelling of "empty" keeps `metadata.x: ""` queries meaningful.
 */

/**
 * Validated v3 input → stored form. Only the keys sent are converted (a patch stays a patch);
 * inside a parent value or a repeater item, child keys not sent get their defaults, because
 * those values replace the whole stored value.
 */
export function toStoredMetadata(metafields: Metafield[], input: Record<string, unknown>): Record<string, unknown> {
  return storeLevel(metafields, input, false);
}

function storeLevel(
  metafields: Metafield[],
  input: Record<string, unknown>,
  fillDefaults: boolean,
): Record<string, unknown> {
  const entries: Array<[string, unknown]> = [];
  const defined = new Set<string>();
  for (const mf of metafields) {
    if (defined.has(mf.key)) continue;
    defined.add(mf.key);
    if (Object.hasOwn(input, mf.key)) entries.push([mf.key, storedValue(mf, input[mf.key])]);
    else if (fillDefaults) entries.push([mf.key, defaultValue(mf)]);
  }
  // Validation rejects unknown keys; if one slips through it is kept rather than silently lost.
  for (const [key, value] of Object.entries(input)) {
    if (!defined.has(key)) entries.push([key, value]);
  }
  return Object.fromEntries(entries);
}

function toObjectId(value: unknown): unknown {
  if (isObjectId(value) || typeof value !== 'string') return value;
  return objectIdFromHex(value) ?? value;
}

function storedValue(mf: Metafield, value: unknown): unknown {
  if (mf.type === 'json') return value;
  if (value === '' || value === null || value === undefined) return '';
  switch (mf.type) {
    case 'select-dropdown': {
      if (typeof value !== 'string') return value;
      const option = findSelectOption(mf, value);
      return option ? optionKey(option) : value;
    }
    case 'object':
      return toObjectId(value);
    case 'objects': {
      // A comma-separated string is the legacy write shape; Metafield defaults may still use it.
      const items =
        typeof value === 'string'
          ? value
              .split(',')
              .map((s) => s.trim())
              .filter(Boolean)
          : value;
      if (!Array.isArray(items)) return value;
      const seen = new Set<string>();
      const ids: unknown[] = [];
      for (const item of items) {
        const id = toObjectId(item);
        const hex = isObjectId(id) ? id.toHexString() : null;
        if (hex !== null && seen.has(hex)) continue;
        if (hex !== null) seen.add(hex);
        ids.push(id);
      }
      return ids;
    }
    case 'switch':
      // Definitions may carry the option spelling ("yes"/"true") as the default value.
      if (value === 'true' || value === 'yes') return true;
      if (value === 'false' || value === 'no') return false;
      return value;
    case 'number':
      if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
      return value;
    case 'check-boxes':
      return Array.isArray(value) ? value.slice() : value;
    case 'parent':
      return isPlainObject(value) ? storeLevel(nestedMetafields(mf), value, true) : value;
    case 'repeater':
      return Array.isArray(value)
        ? value.map((item: unknown) => (isPlainObject(item) ? storeLevel(nestedMetafields(mf), item, true) : item))
        : value;
    default:
      return value;
  }
}

function defaultValue(mf: Metafield): unknown {
  if (mf.type === 'parent') return storeLevel(nestedMetafields(mf), {}, true);
  if (mf.type === 'repeater') return [];
  return storedValue(mf, mf.value);
}

/**
 * The stored values an Object gets on create for keys not sent: each Metafield's default
 * `value` in stored form ("" when it has none), parent → its children's defaults, repeater → [].
 */
export function defaultMetadata(metafields: Metafield[]): Record<string, unknown> {
  return storeLevel(metafields, {}, true);
}

/**
 * Every related Object id in stored metadata (top level, parent children, repeater items),
 * deduplicated, first occurrence first. Only Metafields the type still defines as object or
 * objects count: a removed Metafield's ids are no longer relationships.
 */
export function collectRefs(metafields: Metafield[], stored: Record<string, unknown>): ObjectId[] {
  const found = new Map<string, ObjectId>();
  const addId = (value: unknown) => {
    const id = toObjectId(value);
    if (isObjectId(id) && !found.has(id.toHexString())) found.set(id.toHexString(), id);
  };
  const walk = (level: Metafield[], values: Record<string, unknown>) => {
    for (const mf of level) {
      const value = ownValue(values, mf.key);
      if (mf.type === 'object') addId(value);
      else if (mf.type === 'objects' && Array.isArray(value)) value.forEach(addId);
      else if (mf.type === 'parent' && isPlainObject(value)) walk(nestedMetafields(mf), value);
      else if (mf.type === 'repeater' && Array.isArray(value)) {
        for (const item of value) if (isPlainObject(item)) walk(nestedMetafields(mf), item);
      }
    }
  };
  walk(metafields, stored);
  return [...found.values()];
}

export interface RelationshipRef {
  /** Dotted key path of the Metafield ("author", "seo.author", "sections.0.author"). */
  path: string;
  /** Lower-case hex, so it compares equal to ObjectId#toHexString. */
  id: string;
  objectType: string | undefined;
  metafieldType: 'object' | 'objects';
}

/**
 * Every relationship id in validated v3 input, with the Object type it must belong to, so the
 * service can check them all with one query. An objects value yields one entry per id, all
 * with the Metafield's path.
 */
export function relationshipRefs(metafields: Metafield[], input: Record<string, unknown>): RelationshipRef[] {
  const refs: RelationshipRef[] = [];
  const push = (mf: Metafield, path: string, value: unknown, metafieldType: 'object' | 'objects') => {
    const hex = isObjectId(value) ? value.toHexString() : isObjectIdHex(value) ? value.toLowerCase() : null;
    if (hex !== null) refs.push({ path, id: hex, objectType: mf.object_type, metafieldType });
  };
  const walk = (level: Metafield[], values: Record<string, unknown>, prefix: string) => {
    for (const mf of level) {
      if (!Object.hasOwn(values, mf.key)) continue;
      const value = values[mf.key];
      const path = joinPath(prefix, mf.key);
      if (mf.type === 'object') push(mf, path, value, 'object');
      else if (mf.type === 'objects' && Array.isArray(value)) for (const v of value) push(mf, path, v, 'objects');
      else if (mf.type === 'parent' && isPlainObject(value)) walk(nestedMetafields(mf), value, path);
      else if (mf.type === 'repeater' && Array.isArray(value)) {
        value.forEach((item, index) => {
          if (isPlainObject(item)) walk(nestedMetafields(mf), item, `${path}.${index}`);
        });
      }
    }
  };
  walk(metafields, input, '');
  return refs;
}
