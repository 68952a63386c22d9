import type { Metafield } from '../types/metafield.js';
import { kindOf } from './kinds.js';
import { isUnset, passThrough } from './values.js';
import { walkMetafields } from './walk.js';
import type { ApiMetadata, MetadataRenderContext } from './render-types.js';

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
