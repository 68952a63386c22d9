import type { Metafield } from '../../../types/metafield.js';
import { mediaNameOfUrl } from '../../../metafields/kind-parts.js';
import { isPlainObject } from '../../../util/values.js';

/** Renders a related Object (expanded at depth) in the v1 shape. */
export type RelatedShape = (o: Record<string, unknown>) => Record<string, unknown>;

type Values = Record<string, unknown>;

/** A related Object rendered at depth: its id is what v1 calls the Metafield's value. */
export function idOf(value: unknown): unknown {
  return isPlainObject(value) && typeof value.id === 'string' ? value.id : value;
}

/**
 * An Object's Metafields as v1 answered them, from the type's definitions and the v3-rendered
 * metadata: a parent holds no value, its `children` are its Metafields with theirs; a repeater
 * holds no value, its `children` are items of type `repeating_item`, each with its `children`;
 * a file's value is the media name, its URLs beside it; a relationship's value is the id (ids
 * comma-separated), and at depth the related Object sits in `object` (`objects`).
 */
export function v1Metafields(defs: readonly Metafield[], values: Values, related: RelatedShape): Values[] {
  return defs.map((m) => v1Metafield(m, values[m.key], related));
}

function v1Metafield(m: Metafield, value: unknown, related: RelatedShape): Values {
  // The definition's own value and children are its defaults; the Object's take their place.
  const { value: _default, children: _items, ...def } = m;
  switch (m.type) {
    case 'parent':
      return { ...def, children: v1Metafields(m.children ?? [], isPlainObject(value) ? value : {}, related) };
    case 'repeater': {
      const items = Array.isArray(value) ? value : [];
      const fields = m.repeater_fields ?? [];
      return {
        ...def,
        children: items.map((item: unknown) => ({
          type: 'repeating_item',
          children: v1Metafields(fields, isPlainObject(item) ? item : {}, related),
        })),
      };
    }
    case 'file':
      // None set, or no media item of that name (deleted): no value, and no URLs.
      if (!isPlainObject(value) || typeof value.url !== 'string') return { ...def, value: value ?? null };
      return { ...def, value: mediaNameOfUrl(value.url), url: value.url, imgproc_url: value.imgproc_url };
    case 'object':
      if (!isPlainObject(value)) return { ...def, value: value ?? null };
      return { ...def, value: idOf(value), object: related(value) };
    case 'objects': {
      if (!Array.isArray(value)) return { ...def, value: value ?? null };
      const out: Values = { ...def, value: value.map(idOf).join(',') };
      if (value.some(isPlainObject)) out.objects = value.filter(isPlainObject).map(related);
      return out;
    }
    default:
      return { ...def, value: value ?? null };
  }
}
