import { isPlainObject } from '../util/values.js';
import type { Metafield } from '../types/metafield.js';
import { kindOf } from './kinds.js';
import { isUnset, joinPath } from '../util/values.js';

/** One Metafield of the tree, with its value where there is one. */
export interface MetafieldAt {
  mf: Metafield;
  /** The value under its key; undefined when absent, and always when walking definitions only. */
  value: unknown;
  present: boolean;
  /** Dotted key path: "seo.title", "links.0.label"; without values, "links.label" (every item). */
  path: string;
}

export interface MetafieldVisitor {
  /** Visit Metafields without a value too; a parent without one is walked as an empty object. */
  absent?: boolean;
  /** Asked before a parent or repeater value is entered; false hands it to `leaf` instead. */
  enter?: (at: MetafieldAt) => boolean;
  /** Each Metafield not entered: its output (undefined leaves the key out of the output). */
  leaf: (at: MetafieldAt) => unknown;
}

type Values = Record<string, unknown> | undefined;

/**
 * The one walk over a tree of Metafield definitions with its values. A parent's value (an
 * object) is walked with its children and a repeater's value (an array) item by item with its
 * repeater_fields; values of any other shape are leaves. The first definition of a key wins.
 * Keys that no definition names are left out. Without `values` the definitions themselves are
 * walked: every Metafield once, a repeater's fields named through the array, as MongoDB paths
 * address every item. The output has the shape of the tree, each leaf replaced by `leaf`'s answer.
 */
export function walkMetafields(
  metafields: readonly Metafield[],
  values: Values,
  visitor: MetafieldVisitor,
  prefix = '',
): Record<string, unknown> {
  const out: Array<[string, unknown]> = [];
  const seen = new Set<string>();
  for (const mf of metafields) {
    if (seen.has(mf.key)) continue;
    seen.add(mf.key);
    const present = values !== undefined && Object.hasOwn(values, mf.key);
    if (values !== undefined && !present && visitor.absent !== true) continue;
    const at: MetafieldAt = {
      mf,
      value: present ? values[mf.key] : undefined,
      present,
      path: joinPath(prefix, mf.key),
    };
    const output = enter(at, values === undefined, visitor) ?? visitor.leaf(at);
    if (output !== undefined) out.push([mf.key, output]);
  }
  return Object.fromEntries(out);
}

/** The output of a nested value the walk enters, or undefined when it is a leaf. */
function enter(at: MetafieldAt, definitionsOnly: boolean, visitor: MetafieldVisitor): unknown {
  const nested = kindOf(at.mf).nested;
  if (!nested) return undefined;
  const fields = nested.fields(at.mf);
  const { value, path } = at;
  let walk: (() => unknown) | undefined;
  if (definitionsOnly) {
    walk = () => {
      const item = walkMetafields(fields, undefined, visitor, path);
      return nested.repeats ? [item] : item;
    };
  } else if (nested.repeats && Array.isArray(value)) {
    walk = () =>
      value.map((item: unknown, i) =>
        isPlainObject(item) ? walkMetafields(fields, item, visitor, `${path}.${i}`) : item,
      );
  } else if (!nested.repeats && isPlainObject(value)) {
    walk = () => walkMetafields(fields, value, visitor, path);
  } else if (!nested.repeats && visitor.absent === true && isUnset(value)) {
    walk = () => walkMetafields(fields, {}, visitor, path);
  }
  if (walk === undefined || (visitor.enter !== undefined && !visitor.enter(at))) return undefined;
  return walk();
}
