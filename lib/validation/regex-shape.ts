import type { AST } from '@eslint-community/regexpp';
import { CharSet } from './char-set.js';

/*
 * Facts about the shape of a parsed pattern that the ambiguity check (regex-ambiguity.ts) asks
 * for: what may be skipped, what a part can begin with, and where the engine faces a choice
 * between alternatives. `charSet` gives what one character node matches under the flags.
 */

export type CharNode = AST.Character | AST.CharacterSet | AST.CharacterClass | AST.ExpressionCharacterClass;
export type CharSetOf = (node: CharNode) => CharSet;

export const isCharNode = (node: AST.Node): node is CharNode =>
  node.type === 'Character' ||
  node.type === 'CharacterSet' ||
  node.type === 'CharacterClass' ||
  node.type === 'ExpressionCharacterClass';

export function quantifiersIn(node: AST.Node): AST.Quantifier[] {
  if (node.type === 'Quantifier') return [node, ...quantifiersIn(node.element)];
  if (node.type === 'Alternative') return node.elements.flatMap(quantifiersIn);
  if (node.type === 'Group' || node.type === 'CapturingGroup') return node.alternatives.flatMap(quantifiersIn);
  return [];
}

/** Whether a node always matches the empty text, so what precedes it never has to give way. */
export function vacuous(node: AST.Element): boolean {
  if (node.type === 'Quantifier') return node.min === 0;
  if (node.type === 'Group' || node.type === 'CapturingGroup')
    return node.alternatives.some((a) => a.elements.every(vacuous));
  return false;
}

/** The characters non-empty matches of a sequence can begin with, and whether it can match empty. */
function first(elements: readonly AST.Element[], charSet: CharSetOf): { set: CharSet; nullable: boolean } {
  let set = CharSet.empty;
  for (const e of elements) {
    if (isCharNode(e)) return { set: set.union(charSet(e)), nullable: false };
    if (e.type === 'Group' || e.type === 'CapturingGroup' || e.type === 'Quantifier') {
      const alts = e.type === 'Quantifier' ? [[e.element]] : e.alternatives.map((a) => a.elements);
      const parts = alts.map((a) => first(a, charSet));
      set = parts.reduce((s, p) => s.union(p.set), set);
      const nullable = (e.type === 'Quantifier' && e.min === 0) || parts.some((p) => p.nullable);
      if (!nullable) return { set, nullable: false };
    }
  }
  return { set, nullable: true };
}

/** Whether two alternatives can begin with the same character: a choice the engine may retry. */
export function overlapping(alternatives: readonly AST.Alternative[], charSet: CharSetOf): boolean {
  if (alternatives.length < 2) return false;
  const firsts = alternatives.map((a) => first(a.elements, charSet).set);
  return firsts.some((f, i) => firsts.slice(i + 1).some((g) => g.overlaps(f)));
}

export function hasOverlappingGroup(node: AST.Node, charSet: CharSetOf): boolean {
  if (node.type === 'Quantifier') return hasOverlappingGroup(node.element, charSet);
  if (node.type === 'Alternative') return node.elements.some((e) => hasOverlappingGroup(e, charSet));
  if (node.type !== 'Group' && node.type !== 'CapturingGroup') return false;
  return overlapping(node.alternatives, charSet) || node.alternatives.some((a) => hasOverlappingGroup(a, charSet));
}

/** Combinations of overlapping alternatives one attempt may try: their counts, multiplied. */
export function branching(alternatives: readonly AST.Alternative[], charSet: CharSetOf): number {
  const counts = alternatives.map((a) =>
    a.elements.reduce((product, e) => {
      const node = e.type === 'Quantifier' ? e.element : e;
      return node.type === 'Group' || node.type === 'CapturingGroup'
        ? product * branching(node.alternatives, charSet)
        : product;
    }, 1),
  );
  return overlapping(alternatives, charSet) ? counts.reduce((a, b) => a + b, 0) : Math.max(...counts);
}
