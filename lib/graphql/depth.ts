import {
  getNamedType,
  isObjectType,
  Kind,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';
import { RELATIONSHIP } from './metadata-types.js';
import { MAX_DEPTH } from '../query/limits.js';

/**
 * How many levels of related Objects a selection reaches: a field marked as a relationship
 * (metadata-types.ts) under `n` others is level n + 1. The read then expands that many levels
 * (as v3 `depth`), one read per level for the whole page, never one per Object.
 */
export function relationshipDepth(info: GraphQLResolveInfo): number {
  let deepest = 0;
  for (const node of info.fieldNodes)
    if (node.selectionSet)
      deepest = Math.max(
        deepest,
        levels(node.selectionSet, getNamedType(info.returnType), info.fragments, 0, new Set()),
      );
  return Math.min(deepest, MAX_DEPTH);
}

function levels(
  set: SelectionSetNode,
  type: GraphQLNamedType,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  depth: number,
  visiting: Set<string>,
): number {
  if (!isObjectType(type)) return depth;
  let deepest = depth;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      const field = type.getFields()[selection.name.value];
      if (!field || !selection.selectionSet) continue;
      const here = field.extensions[RELATIONSHIP] === true ? depth + 1 : depth;
      deepest = Math.max(deepest, levels(selection.selectionSet, getNamedType(field.type), fragments, here, visiting));
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, levels(selection.selectionSet, type, fragments, depth, visiting));
    } else {
      const name = selection.name.value;
      const fragment = fragments[name];
      if (!fragment || visiting.has(name)) continue;
      visiting.add(name);
      deepest = Math.max(deepest, levels(fragment.selectionSet, type, fragments, depth, visiting));
      visiting.delete(name);
    }
  }
  return deepest;
}
