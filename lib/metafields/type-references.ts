import type { Metafield } from '../types/metafield.js';
import { kindOf } from './kinds.js';

/** A Metafield definition and where it sits: keys joined by dots, repeating items as `[i]`. */
export interface NestedMetafield {
  metafield: Metafield;
  path: string;
}

/** Where a nested list sits below its Metafield: repeating items as `[i]`, other lists by their keys. */
function listPrefix(path: string, at: string): string {
  const item = /^children\[(\d+)\]\.children$/.exec(at);
  return item ? `${path}[${item[1] ?? ''}].` : `${path}.`;
}

/**
 * Every Metafield definition of a list at any depth: every list each kind holds (the children
 * of a parent, the repeater_fields of a repeater and the Metafields of each of its repeating
 * items). Iterative, and stored lists were bounded in depth when they were validated.
 */
export function* nestedMetafields(list: readonly Metafield[]): Generator<NestedMetafield> {
  const stack: { list: readonly Metafield[]; prefix: string }[] = [{ list, prefix: '' }];
  for (let level = stack.pop(); level !== undefined; level = stack.pop()) {
    for (const metafield of level.list) {
      const path = `${level.prefix}${metafield.key}`;
      yield { metafield, path };
      for (const { at, fields } of kindOf(metafield).nested?.lists(metafield) ?? []) {
        if (Array.isArray(fields)) stack.push({ list: fields, prefix: listPrefix(path, at) });
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

/** Every Object type slug the relationship Metafields of `list` name, at any depth. */
export function referencedTypes(list: readonly Metafield[]): Set<string> {
  const slugs = new Set<string>();
  for (const { metafield } of nestedMetafields(list))
    if (typeof metafield.object_type === 'string') slugs.add(metafield.object_type);
  return slugs;
}

/** A copy of `list` without the relationship Metafields (at any depth) whose Object type `keep` refuses. */
export function withoutReferences(list: readonly Metafield[], keep: (slug: string) => boolean): Metafield[] {
  const copy = structuredClone(list) as Metafield[];
  const prune = (level: Metafield[]): void => {
    for (let i = level.length - 1; i >= 0; i--) {
      const metafield = level[i];
      if (!metafield) continue;
      if (typeof metafield.object_type === 'string' && !keep(metafield.object_type)) level.splice(i, 1);
      else
        for (const { fields } of kindOf(metafield).nested?.lists(metafield) ?? [])
          if (Array.isArray(fields)) prune(fields);
    }
  };
  prune(copy);
  return copy;
}
