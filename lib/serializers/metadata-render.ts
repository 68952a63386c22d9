import type { Metafield } from '../db/collections.js';
import { isObjectId } from '../util/object-id.js';
import { isPlainObject } from '../util/plain-object.js';
import { findSelectOption, nestedMetafields, optionKey } from '../validation/metadata-common.js';

/**
 * Rendered metadata, by Metafield key. Each value's shape follows its Metafield (see
 * renderMetadata), so no single type describes the values.
 */
export type ApiMetadata = Record<string, unknown>;

/** A select-dropdown value as answered. */
export type ApiSelectValue = { key: string; value: string };

/** A file value as answered: the addresses of the media item. */
export type ApiFileUrls = { url: string; imgproc_url: string };

export interface MetadataRenderContext {
  /** URLs of the media item with this name in the Bucket, or null when there is none. */
  fileUrls(name: string): ApiFileUrls | null;
  /** Renders a related Object that populate has put in place of its id. */
  renderRelated(doc: unknown): unknown;
}

/**
 * Stored metadata → v3 response. Choices worth knowing:
 * - empty values ("" / null) are returned as stored, for every type;
 * - select-dropdown → { key, value }; a key no longer among the options answers value = key;
 * - file → { url, imgproc_url }; a name with no media item (deleted) renders as null, because a
 *   URL that does not resolve would be worse than none;
 * - object/objects → hex ids, or ctx.renderRelated(doc) where populate expanded them;
 * - keys defined by the type but absent from the stored document are omitted (no invented
 *   values); stored keys the type no longer defines are passed through with ObjectIds as hex.
 * Never throws on a stored value whose shape predates a change of the Metafield's type: values
 * that do not fit the current type are passed through.
 */
export function renderMetadata(
  metafields: Metafield[],
  stored: Record<string, unknown>,
  ctx: MetadataRenderContext,
): ApiMetadata {
  return renderLevel(metafields, stored, ctx);
}

function renderLevel(
  metafields: Metafield[],
  stored: Record<string, unknown>,
  ctx: MetadataRenderContext,
): ApiMetadata {
  const entries: Array<[string, unknown]> = [];
  const defined = new Set<string>();
  for (const mf of metafields) {
    if (defined.has(mf.key)) continue;
    defined.add(mf.key);
    if (Object.hasOwn(stored, mf.key)) entries.push([mf.key, renderValue(mf, stored[mf.key], ctx)]);
  }
  for (const [key, value] of Object.entries(stored)) {
    if (!defined.has(key)) entries.push([key, passThrough(value)]);
  }
  return Object.fromEntries(entries);
}

function renderRelationship(value: unknown, ctx: MetadataRenderContext): unknown {
  if (isObjectId(value)) return value.toHexString();
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return ctx.renderRelated(value);
  return passThrough(value);
}

function renderValue(mf: Metafield, value: unknown, ctx: MetadataRenderContext): unknown {
  if (value === '' || value === null || value === undefined) return value;
  switch (mf.type) {
    case 'select-dropdown': {
      if (typeof value !== 'string') return passThrough(value);
      // Stored keys are option keys, but a value matching nothing by key may be a legacy value.
      const option = findSelectOption(mf, value);
      return (
        option ? { key: optionKey(option), value: option.value } : { key: value, value }
      ) satisfies ApiSelectValue;
    }
    case 'object':
      return renderRelationship(value, ctx);
    case 'objects':
      return Array.isArray(value) ? value.map((item) => renderRelationship(item, ctx)) : passThrough(value);
    case 'file': {
      if (typeof value !== 'string') return passThrough(value);
      const urls = ctx.fileUrls(value);
      return urls ? ({ url: urls.url, imgproc_url: urls.imgproc_url } satisfies ApiFileUrls) : null;
    }
    case 'parent':
      return isPlainObject(value) ? renderLevel(nestedMetafields(mf), value, ctx) : passThrough(value);
    case 'repeater':
      return Array.isArray(value)
        ? value.map((item) => (isPlainObject(item) ? renderLevel(nestedMetafields(mf), item, ctx) : passThrough(item)))
        : passThrough(value);
    default:
      return passThrough(value);
  }
}

/** JSON-ready copy: ObjectIds become hex strings at any depth; everything else is unchanged. */
function passThrough(value: unknown): unknown {
  if (isObjectId(value)) return value.toHexString();
  if (Array.isArray(value)) return value.map(passThrough);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, passThrough(v)]));
  return value;
}
