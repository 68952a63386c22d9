import { createHash } from 'node:crypto';
import type { Metafield } from '../types/metafield.js';

/**
 * Metafields an Object carries of its own, beside its type's (legacy Add Object and Edit
 * Metafields send keys the type lacks). One set per Object, stored on it, so every version
 * renders, validates and is queried by the type's Metafields followed by these.
 */

/** Top-level own Metafields of one Object: a bound on what a legacy write may add, not a content rule. */
export const MAX_OWN_METAFIELDS = 100;

/**
 * The Metafields an Object's metadata is read by: its type's, then its own whose key the type
 * lacks. A key the type defines (perhaps added to the type later) is the type's.
 */
export function effectiveMetafields(
  typeMetafields: readonly Metafield[],
  own: readonly Metafield[] | undefined,
): Metafield[] {
  if (!own || own.length === 0) return typeMetafields as Metafield[];
  const taken = new Set(typeMetafields.map((m) => m.key));
  return [...typeMetafields, ...own.filter((m) => !taken.has(m.key))];
}

/** What tells validators of one type apart: a type as Objects with own Metafields see it. */
export interface OwnVariant {
  own_variant?: string;
}

/**
 * `type` as an Object with `own` Metafields sees it: the same type with its Metafields extended,
 * and `own_variant` naming the extension, so compiled validators are kept per set of own Metafields.
 * Without own Metafields it is `type` itself.
 */
export function typeWithOwn<T extends { metafields: Metafield[] }>(
  type: T,
  own: readonly Metafield[] | undefined,
): T & OwnVariant {
  if (!own || own.length === 0) return type;
  const variant = createHash('sha1').update(JSON.stringify(own)).digest('hex');
  return { ...type, metafields: effectiveMetafields(type.metafields, own), own_variant: variant };
}
