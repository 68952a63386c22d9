/** The last Unicode code point. */
export const MAX_CODE_POINT = 0x10ffff;

/**
 * A set of code points as sorted, disjoint, non-adjacent inclusive ranges. The regex checks use
 * it to ask whether two parts of a pattern can match the same character; building it from
 * ranges keeps `[^a]` or `\P{L}` as cheap as `a`.
 */
export class CharSet {
  private constructor(private readonly ranges: readonly (readonly [number, number])[]) {}

  static readonly empty = new CharSet([]);
  static readonly all = new CharSet([[0, MAX_CODE_POINT]]);

  static of(...codePoints: number[]): CharSet {
    return CharSet.fromRanges(codePoints.map((c) => [c, c]));
  }

  /** Ranges in any order, overlapping or not. */
  static fromRanges(ranges: Iterable<readonly [number, number]>): CharSet {
    const sorted = [...ranges].filter(([lo, hi]) => lo <= hi).sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [lo, hi] of sorted) {
      const last = merged[merged.length - 1];
      if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
      else merged.push([lo, hi]);
    }
    return new CharSet(merged);
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  /** How many code points the set holds. */
  get size(): number {
    return this.ranges.reduce((n, [lo, hi]) => n + hi - lo + 1, 0);
  }

  rangeList(): readonly (readonly [number, number])[] {
    return this.ranges;
  }

  has(codePoint: number): boolean {
    return this.ranges.some(([lo, hi]) => lo <= codePoint && codePoint <= hi);
  }

  union(other: CharSet): CharSet {
    return CharSet.fromRanges([...this.ranges, ...other.ranges]);
  }

  complement(): CharSet {
    const out: [number, number][] = [];
    let next = 0;
    for (const [lo, hi] of this.ranges) {
      if (lo > next) out.push([next, lo - 1]);
      next = hi + 1;
    }
    if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
    return new CharSet(out);
  }

  intersect(other: CharSet): CharSet {
    const out: [number, number][] = [];
    let i = 0;
    let j = 0;
    for (;;) {
      const a = this.ranges[i];
      const b = other.ranges[j];
      if (a === undefined || b === undefined) break;
      const [a0, a1] = a;
      const [b0, b1] = b;
      const lo = Math.max(a0, b0);
      const hi = Math.min(a1, b1);
      if (lo <= hi) out.push([lo, hi]);
      if (a1 < b1) i++;
      else j++;
    }
    return new CharSet(out);
  }

  minus(other: CharSet): CharSet {
    return this.intersect(other.complement());
  }

  overlaps(other: CharSet): boolean {
    let i = 0;
    let j = 0;
    for (;;) {
      const a = this.ranges[i];
      const b = other.ranges[j];
      if (a === undefined || b === undefined) return false;
      if (a[0] <= b[1] && b[0] <= a[1]) return true;
      if (a[1] < b[1]) i++;
      else j++;
    }
  }

  isSubsetOf(other: CharSet): boolean {
    return this.minus(other).isEmpty;
  }
}
