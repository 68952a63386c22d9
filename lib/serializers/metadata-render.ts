import type { Metafield } from '../metafields/definition.js';
import { kindOf } from '../metafields/kinds.js';
import { isUnset, passThrough } from '../metafields/values.js';
import { walkMetafields } from '../metafields/walk.js';

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
 * Stored metadata → v3 response, each value by its kind's `render` (lib/metafields/kinds.ts):
 * - empty values ("" / null) are returned as stored, for every type;
 * - select-dropdown → { key, value }; a key no longer among the options answers value = key;
 * - file → { url, imgproc_url }, or null when the media item is gone;
 * - object/objects → hex ids, or ctx.renderRelated(doc) where populate expanded them;
 * - keys defined by the type but absent from the stored document are omitted (no invented
 *   values); stored top-level keys the type no longer defines are passed through with ObjectIds as hex.
 * Never throws on a stored value whose shape predates a change of the Metafield's type: values
 * that do not fit the current type are passed through.
 */
export function renderMetadata(
  metafields: Metafield[],
  stored: Record<string, unknown>,
  ctx: MetadataRenderContext,
): ApiMetadata {
  const rendered = walkMetafields(metafields, stored, { leaf: ({ mf, value }) => renderValue(mf, value, ctx) });
  const stale = Object.entries(stored).filter(([key]) => !Object.hasOwn(rendered, key));
  return { ...rendered, ...Object.fromEntries(stale.map(([key, value]) => [key, passThrough(value)])) };
}

function renderValue(mf: Metafield, value: unknown, ctx: MetadataRenderContext): unknown {
  if (isUnset(value)) return value;
  const kind = kindOf(mf);
  return kind.render ? kind.render(value, mf, ctx) : passThrough(value);
}
