import type { Metafield } from '../types/metafield.js';
import { kindOf } from '../metafields/kinds.js';
import { passThrough } from '../util/values.js';
import { walkMetafields } from '../metafields/walk.js';

/*
 * A bundle carries metadata in the form a write takes (POST /objects): relationship ids as hex
 * strings, select-dropdown values as option keys, file values as media names. These turn the
 * stored form and a read's answer into it, and move its ids and names to the target's.
 */

/**
 * Stored metadata → the write form, keeping only the Metafields the type defines now (values of
 * removed Metafields stay stored but no read shows them, so they are not content to carry over).
 */
export function storedToWriteForm(metafields: Metafield[], stored: Record<string, unknown>): Record<string, unknown> {
  return walkMetafields(metafields, stored, { leaf: ({ value }) => passThrough(value) });
}

/** Metadata as a v3 read answers it (depth 0) → the write form, by each kind's `unrender`. */
export function answerToWriteForm(metafields: Metafield[], answered: Record<string, unknown>): Record<string, unknown> {
  return walkMetafields(metafields, answered, {
    leaf: ({ mf, value }) => {
      const unrender = kindOf(mf).unrender;
      return unrender ? unrender(value) : value;
    },
  });
}

/** Where each source id and media name goes; undefined: nowhere (not in the bundle). */
export interface Remap {
  object: (sourceId: string) => string | undefined;
  media: (sourceName: string) => string | undefined;
}

/** A reference that names nothing the bundle holds, left out of what is written. */
export interface DroppedRef {
  path: string;
  what: 'Object' | 'media';
  value: string;
}

/**
 * Write-form metadata with every relationship id and file name moved to the target's. A value
 * naming nothing in the bundle (an Object or media item deleted in the source, which the source
 * keeps until the value is next written) is dropped and reported through `dropped`.
 */
export function remapWriteForm(
  metafields: Metafield[],
  metadata: Record<string, unknown>,
  remap: Remap,
  dropped: (ref: DroppedRef) => void,
): Record<string, unknown> {
  return walkMetafields(metafields, metadata, {
    leaf: ({ mf, value, path }) => {
      const kind = kindOf(mf);
      if (kind.relatedIds) {
        const one = (id: unknown): unknown => {
          if (typeof id !== 'string' || id === '') return id;
          const to = remap.object(id);
          if (to === undefined) dropped({ path, what: 'Object', value: id });
          return to;
        };
        return Array.isArray(value) ? value.map(one).filter((id) => id !== undefined) : (one(value) ?? null);
      }
      if (kind.mediaName && typeof value === 'string' && value !== '') {
        const to = remap.media(value);
        if (to === undefined) dropped({ path, what: 'media', value });
        return to ?? null;
      }
      return value;
    },
  });
}
