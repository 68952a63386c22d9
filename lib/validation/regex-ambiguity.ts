import type { AST } from '@eslint-community/regexpp';
import { CharSet } from './char-set.js';
import { caseClosure, charSetOf, LINE_TERMINATORS, WORD } from './regex-char-sets.js';
import {
  branching,
  hasOverlappingGroup,
  isCharNode,
  quantifiersIn,
  vacuous,
  type CharNode,
  type CharSetOf,
} from './regex-shape.js';

/*
 * Why a pattern can make a backtracking engine (PCRE, Java's java.util.regex in the embedded
 * MongoDB, V8) work more than linearly in the length of the text it searches.
 *
 * Such an engine finds a match by trying each start position in turn, and at each one tries
 * every way the pattern can split the text before giving up. Two repetitions that can match the
 * same characters, with only such characters between them, can split a run of those characters
 * in many ways; a chain of k of them tries about n^k splits when what follows fails. An
 * unanchored search (no leading ^) is itself such a repetition: it starts again at every
 * position, so "a+b" rescans a run of a's from each of its positions.
 *
 * The line is drawn at linear: measured on the embedded engine (spec/bench/regex-cost.ts), a
 * quadratic "a+b" takes about 3 s on 20,000 characters and "\d+-" 11 s on 40,000, while a
 * stored content may be megabytes. So a chain of two unbounded repetitions (the search's own
 * counting) is refused when what follows the last one can fail; when nothing after it can fail
 * ("foo.*", "\d+" alone) the first split that works ends the attempt. Bounded repetitions
 * ({n,m}) in a chain multiply each attempt's work by their counts; their product is capped.
 * Alternatives that can begin with the same character multiply it the same way, and under a
 * repetition ((a|ab)*) make it exponential.
 */

/** Work one attempt may take per position: as much as a pattern spelling 64 characters out. */
export const MAX_REPEAT_FACTOR = 64;

export interface AmbiguityFlags {
  ignoreCase: boolean;
  multiline: boolean;
  dotAll: boolean;
}

/** An element that may match in several ways: a quantifier, or a group with an empty alternative. */
interface Choice {
  node: AST.Quantifier | AST.Group | AST.CapturingGroup;
  min: number;
  max: number;
}

/** A repetition with what a chain ending in it costs: n^degree × factor per start. */
interface Loop {
  /** null: the search's own retry at every position, present unless the pattern is anchored. */
  node: Choice['node'] | null;
  degree: number;
  factor: number;
}

/** A repetition that could still be consuming characters at this point of the pattern. */
interface Open {
  loop: Loop;
  /** What its body can consume. */
  set: CharSet;
  /** The elements matched since it, on this path, latest first (shared between paths). */
  between: Between | null;
}

interface Between {
  node: AST.Element;
  prev: Between | null;
}

/** Steps of this analysis before it gives up and refuses: a pattern so involved is not run. */
const MAX_ANALYSIS_STEPS = 100_000;

/** Characters no engine counts as word characters (some count non-ASCII letters). */
const ASCII_NON_WORD = CharSet.fromRanges([[0, 0x7f]]).minus(WORD);

class Analysis {
  problem: string | null = null;
  private readonly sets = new Map<AST.Node, CharSet>();
  private readonly consumed = new Map<AST.Node, CharSet>();
  private steps = 0;

  constructor(private readonly flags: AmbiguityFlags) {}

  private fail(problem: string): void {
    this.problem ??= problem;
  }

  /** What one character node can match on any engine, case variants included. */
  readonly charSet: CharSetOf = (node: CharNode): CharSet => {
    let set = this.sets.get(node);
    if (set === undefined) {
      set = charSetOf(node, { dotAll: this.flags.dotAll, mode: 'cover' }) ?? CharSet.all;
      if (this.flags.ignoreCase) set = caseClosure(set);
      this.sets.set(node, set);
    }
    return set;
  };

  /** Every character a node can consume. */
  consumable(node: AST.Node): CharSet {
    if (isCharNode(node)) return this.charSet(node);
    let set = this.consumed.get(node);
    if (set !== undefined) return set;
    set = CharSet.empty;
    if (node.type === 'Quantifier') set = this.consumable(node.element);
    else if (node.type === 'Alternative') set = node.elements.reduce((s, e) => s.union(this.consumable(e)), set);
    else if (node.type === 'Group' || node.type === 'CapturingGroup')
      set = node.alternatives.reduce((s, a) => s.union(this.consumable(a)), set);
    this.consumed.set(node, set);
    return set;
  }

  private betweenWithin(between: Between | null, x: CharSet): boolean {
    for (let b = between; b !== null; b = b.prev) if (!this.within(b.node, x)) return false;
    return true;
  }

  /** Whether a node can match some text made only of characters in `x` (the empty text included). */
  private within(node: AST.Element, x: CharSet): boolean {
    if (++this.steps === MAX_ANALYSIS_STEPS) this.fail('too involved to be checked for safety');
    if (isCharNode(node)) return this.charSet(node).overlaps(x);
    switch (node.type) {
      case 'Group':
      case 'CapturingGroup':
        return node.alternatives.some((a) => a.elements.every((e) => this.within(e, x)));
      case 'Quantifier':
        return node.min === 0 || this.within(node.element, x);
      case 'Assertion':
        if (node.kind === 'start') return this.flags.multiline && x.overlaps(LINE_TERMINATORS);
        if (node.kind === 'end') return x.overlaps(LINE_TERMINATORS);
        // \b between two characters of x needs a word and a non-word character there; whether a
        // non-ASCII letter is a word character differs between engines, so it may be either.
        if (node.kind === 'word' && !node.negate) return !x.isSubsetOf(WORD) && !x.isSubsetOf(ASCII_NON_WORD);
        return true;
      default:
        return true;
    }
  }

  walkSequence(elements: readonly AST.Element[], open: Open[], tailVacuous: boolean, weight: number): Open[] {
    let current = open;
    elements.forEach((e, i) => {
      const tail = tailVacuous && elements.slice(i + 1).every(vacuous);
      current = this.walkElement(e, current, tail, weight);
    });
    return current;
  }

  /** The open repetitions that can go on past `e`, with `e` recorded as between. */
  private pass(open: Open[], e: AST.Element): Open[] {
    return open.filter((o) => this.within(e, o.set)).map((o) => ({ ...o, between: { node: e, prev: o.between } }));
  }

  /** Repetitions opened inside `e` (walked with the ones open before it). */
  private openedInside(e: AST.Element, open: Open[], tail: boolean, weight: number): Open[] {
    const alternatives =
      e.type === 'Group' || e.type === 'CapturingGroup' ? e.alternatives.map((a) => a.elements) : [[e]];
    return alternatives.flatMap((elements) =>
      this.walkSequence(elements, open, tail, weight).filter((o) => !open.some((p) => p.loop === o.loop)),
    );
  }

  private walkElement(e: AST.Element, open: Open[], tail: boolean, weight: number): Open[] {
    let choice: Choice | null = null;
    let inner: Open[] = [];
    if (e.type === 'Group' || e.type === 'CapturingGroup') {
      inner = this.openedInside(e, open, tail, weight);
      // (?:x|) is x? written otherwise: a choice to match x or not, like any optional element.
      const empty = e.alternatives.map((a) => a.elements.every((x) => vacuous(x)));
      if (empty.includes(true) && empty.includes(false)) choice = { node: e, min: 0, max: 1 };
    } else if (e.type === 'Quantifier') {
      if (e.max >= 2) this.checkRepeatedBody(e);
      else inner = this.openedInside(e.element, open, tail, weight);
      if (e.max >= 2 || e.max > e.min) choice = { node: e, min: e.min, max: e.max };
    }
    const passed = this.pass(open, e);
    if (choice === null) return [...passed, ...inner];
    const loop = this.chain(choice, open, tail, weight);
    if (choice.max === choice.min) return [...passed, ...inner];
    return [...passed, ...inner, { loop, set: this.consumable(e), between: null }];
  }

  /** A repeated body must not be able to match one text in several ways. */
  private checkRepeatedBody(q: AST.Quantifier): void {
    if (quantifiersIn(q.element).some((inner) => inner.max > inner.min))
      this.fail(`nested quantifiers such as ${q.raw} can take exponential time`);
    else if (hasOverlappingGroup(q.element, this.charSet))
      this.fail(
        `${q.raw} repeats alternatives that can begin with the same character, which can take exponential time; make each alternative start differently`,
      );
  }

  /** Whether `node` can match some non-empty text of characters in x. */
  private consumesWithin(node: AST.Element, x: CharSet): boolean {
    if (node.type === 'Quantifier') return this.within(node.element, x) && this.consumable(node.element).overlaps(x);
    if (node.type === 'Group' || node.type === 'CapturingGroup')
      return node.alternatives.some(
        (a) => a.elements.every((e) => this.within(e, x)) && this.consumable(a).overlaps(x),
      );
    return this.within(node, x);
  }

  /** The cost of the chain ending in a choice, refused when more than linear or too large. */
  private chain(choice: Choice, open: Open[], tail: boolean, weight: number): Loop {
    const { node: q, min, max } = choice;
    const body = this.consumable(q);
    const preds = open.filter((p) => {
      const x = p.set.intersect(body);
      return !x.isEmpty && this.betweenWithin(p.between, x) && this.consumesWithin(q, x);
    });
    const worst = preds.reduce<Loop | null>((w, p) => (w === null || p.loop.degree > w.degree ? p.loop : w), null);
    const predFactor = Math.max(1, ...preds.map((p) => p.loop.factor));
    const unbounded = max === Infinity;
    // Steps a bounded repetition may take: each count it may stop at, or its count when fixed.
    const own = unbounded ? Math.max(1, min) : min === 0 ? max + 1 : max;
    const loop: Loop = { node: q, degree: (worst?.degree ?? 0) + (unbounded ? 1 : 0), factor: predFactor * own };
    if (worst === null) return loop;
    // Nothing after q can fail: the first way q matches ends the attempt, after at least `min` steps.
    const factor = (tail ? predFactor * Math.max(1, min) : loop.factor) * weight;
    if (!tail && loop.degree >= 2) this.fail(this.polynomial(q, worst, preds));
    else if (factor > MAX_REPEAT_FACTOR)
      this.fail(
        `repetition counts multiply: ${q.raw} after what can match the same characters takes up to ${factor} steps at each position of the text (at most ${MAX_REPEAT_FACTOR})`,
      );
    return loop;
  }

  private polynomial(q: Choice['node'], worst: Loop, preds: Open[]): string {
    const prefix = preds.find((p) => p.loop.node === null);
    if (worst.node === null || (prefix && worst.degree <= 1)) {
      const leadingAny =
        prefix?.between === null &&
        q.type === 'Quantifier' &&
        q.min === 0 &&
        q.element.type === 'CharacterSet' &&
        q.element.kind === 'any';
      if (leadingAny)
        return `a leading ${q.raw} adds nothing to a search, which already looks at every position, and makes it take time quadratic in the length of the text; drop it`;
      return `${q.raw} can take time quadratic in the length of the text: the search starts again at every position of a run of characters it matches and rescans the run; anchor the pattern with ^, put \\b before ${q.raw}, or begin the pattern with a character ${q.raw} cannot match`;
    }
    return `${worst.node.raw} and ${q.raw} can match the same characters with nothing between them that only one of them matches, so matching can take time quadratic or worse in the length of the text; separate them with a character only one of them matches, or merge them`;
  }
}

/**
 * Why matching `pattern` on a backtracking engine can take more than linear time in the length
 * of the text (or too many steps per position), or null. The pattern has no back-references,
 * look-around, or nested quantifiers safe-regex2 could see (those are refused before).
 */
export function ambiguityProblem(pattern: AST.Pattern, flags: AmbiguityFlags): string | null {
  const analysis = new Analysis(flags);
  const choices = branching(pattern.alternatives, analysis.charSet);
  if (choices > MAX_REPEAT_FACTOR)
    return `alternatives that can begin with the same character multiply the work of each attempt (${choices} combinations, at most ${MAX_REPEAT_FACTOR})`;
  const search: Open = { loop: { node: null, degree: 1, factor: 1 }, set: CharSet.all, between: null };
  for (const alternative of pattern.alternatives) {
    analysis.walkSequence(alternative.elements, [search], true, choices);
    if (analysis.problem !== null) return analysis.problem;
  }
  return null;
}
