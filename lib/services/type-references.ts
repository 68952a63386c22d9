import type { Metafield } from '../db/collections.js';

/** A Metafield definition and where it sits: keys joined by dots, repeating items as `[i]`. */
export interface NestedMetafield {
  metafield: Metafield;
  path: string;
}

/**
 * Every Metafield definition of a list at any depth: the children of a parent, the
 * repeater_fields of a repeater and the Metafields of each of its repeating items. A local
 * stand-in for the shared walker over Metafield kinds, which should replace it. Iterative, and
 * stored lists were bounded in depth when they were validated.
 */
export function* nestedMetafields(list: readonly Metafield[]): Generator<NestedMetafield> {
  const stack: { list: readonly Metafield[]; prefix: string }[] = [{ list, prefix: '' }];
  for (let level = stack.pop(); level !== undefined; level = stack.pop()) {
    for (const metafield of level.list) {
      const path = `${level.prefix}${metafield.key}`;
      yield { metafield, path };
      if (Array.isArray(metafield.repeater_fields)) stack.push({ list: metafield.repeater_fields, prefix: `${path}.` });
      if (metafield.type === 'parent' && Array.isArray(metafield.children)) {
        stack.push({ list: metafield.children, prefix: `${path}.` });
      } else if (metafield.type === 'repeater' && Array.isArray(metafield.children)) {
        metafield.children.forEach((item, i) => {
          if (Array.isArray(item.children)) stack.push({ list: item.children, prefix: `${path}[${i}].` });
        });
      }
    }
  }
}

/** Paths of the relationship Metafields of `list` that name the Object type `slug`, in a stable order. */
export function referencesTo(list: readonly Metafield[], slug: string): string[] {
  const paths: string[] = [];
  for (const { metafield, path } of nestedMetafields(list)) if (metafield.object_type === slug) paths.push(path);
  return paths.sort();
}

/** A copy of `list` whose relationship Metafields name `to` wherever they named `from`; null when none did. */
export function renameReferences(list: readonly Metafield[], from: string, to: string): Metafield[] | null {
  const copy = structuredClone(list) as Metafield[];
  let changed = false;
  for (const { metafield } of nestedMetafields(copy)) {
    if (metafield.object_type === from) {
      metafield.object_type = to;
      changed = true;
    }
  }
  return changed ? copy : null;
}
