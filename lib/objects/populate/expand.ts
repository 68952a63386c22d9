import { ObjectId } from 'mongodb';
import type { ObjectDoc } from '../../db/collections.js';

/** Related Objects by hex id; null marks an id that was looked up and is not visible. */
export type RelatedMap = Map<string, ObjectDoc | null>;

/**
 * A page document as `props` projected it: it keeps `_id` but may lack `metadata`, whatever the
 * ObjectDoc type of the query result says.
 */
type ProjectedDoc = Pick<ObjectDoc, '_id'> & Partial<Pick<ObjectDoc, 'metadata'>>;

/** How many related Objects the expanded page may hold, counting each place one appears. */
export interface OccurrenceLimit {
  max: number;
  /** The error thrown once `max` is crossed. */
  error: () => Error;
}

interface Expanded {
  doc: ObjectDoc;
  /** Related Objects inside `doc` once written out, counting every reference. */
  occurrences: number;
}

const UNRESOLVED = Symbol('unresolved');

/** Every ObjectId anywhere in a value: relationships hide in parents and repeater items too. */
function collectIds(value: unknown, out: Set<string>): void {
  if (value instanceof ObjectId) out.add(value.toHexString());
  else if (Array.isArray(value)) for (const v of value) collectIds(v, out);
  else if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    for (const v of Object.values(value)) collectIds(v, out);
  }
}

/**
 * Expands one page. Stored metadata holds relationships as ObjectIds (JSON input can produce no
 * other ObjectIds), so every ObjectId found while walking metadata is a relationship, whether at
 * top level, in a parent's children or in repeater items. Each is replaced by its related
 * Object, expanded in turn until the depth is used. An Object already on its own expansion path
 * stays an id (cycle cut); an Object that is missing or not visible under the status rules is
 * dropped: null for a single relationship, left out of a multiple one.
 *
 * A related Object reached by many references is expanded once and the result shared. What an
 * expansion yields depends on the Object, the depth left, and which Objects on the path above
 * it its own expansion would meet (those are cut), so that is the key; in the usual case (no
 * cycle through the Object) the path does not matter and every reference shares one result.
 * Shared results are written out once per reference, so the number of references the response
 * would carry is counted as the expansion goes, and the expansion stops as soon as it crosses
 * the limit: a dense fan (30 Objects each related to 30, depth 3) is refused after a bounded
 * amount of work instead of growing a tree of 30⁴ nodes.
 */
class PageExpansion {
  private readonly done = new Map<string, Expanded>();
  private readonly idsOf = new Map<string, ReadonlySet<string>>();
  private readonly reachMemo = new Map<string, boolean>();
  private occurrences = 0;

  constructor(
    private readonly related: RelatedMap,
    private readonly limit: OccurrenceLimit,
  ) {}

  expand<D extends ProjectedDoc>(doc: D, depth: number, above: readonly string[]): { doc: D; occurrences: number } {
    if (depth <= 0 || !doc.metadata) return { doc, occurrences: 0 };
    const onPath = [...above, doc._id.toHexString()];
    let inside = 0;
    const walk = (value: unknown): unknown => {
      if (value instanceof ObjectId) {
        const hex = value.toHexString();
        if (onPath.includes(hex)) return value;
        const target = this.related.get(hex);
        if (!target) return UNRESOLVED;
        const child = this.shared(target, depth - 1, onPath);
        inside += 1 + child.occurrences;
        return child.doc;
      }
      if (Array.isArray(value)) return value.map(walk).filter((v) => v !== UNRESOLVED);
      if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(value)) {
          const w = walk(v);
          out[k] = w === UNRESOLVED ? null : w;
        }
        return out;
      }
      return value;
    };
    return { doc: { ...doc, metadata: walk(doc.metadata) as Record<string, unknown> }, occurrences: inside };
  }

  /** One reference to `target`: counted, then answered from the shared results when possible. */
  private shared(target: ObjectDoc, depth: number, above: readonly string[]): Expanded {
    const hex = target._id.toHexString();
    const met = above.filter((a) => this.reaches(target, a, depth)).sort();
    const key = `${hex}:${depth}:${met.join(',')}`;
    const hit = this.done.get(key);
    this.count(1 + (hit?.occurrences ?? 0));
    if (hit) return hit;
    const made = this.expand(target, depth, above);
    this.done.set(key, made);
    return made;
  }

  private count(n: number): void {
    this.occurrences += n;
    if (this.occurrences > this.limit.max) throw this.limit.error();
  }

  /** Whether expanding `doc` with `depth` levels left would meet the id `a` (superset is safe). */
  private reaches(doc: ObjectDoc, a: string, depth: number): boolean {
    if (depth <= 0) return false;
    const hex = doc._id.toHexString();
    const key = `${hex}:${a}:${depth}`;
    const memo = this.reachMemo.get(key);
    if (memo !== undefined) return memo;
    const ids = this.ids(doc);
    let found = ids.has(a);
    for (const id of ids) {
      if (found) break;
      const next = this.related.get(id);
      if (next && id !== hex) found = this.reaches(next, a, depth - 1);
    }
    this.reachMemo.set(key, found);
    return found;
  }

  private ids(doc: ObjectDoc): ReadonlySet<string> {
    const hex = doc._id.toHexString();
    let ids = this.idsOf.get(hex);
    if (!ids) {
      const found = new Set<string>();
      collectIds(doc.metadata, found);
      ids = found;
      this.idsOf.set(hex, ids);
    }
    return ids;
  }
}

/** The page with relationships expanded `depth` levels (see PageExpansion). */
export function expandPage<D extends ProjectedDoc>(
  page: readonly D[],
  related: RelatedMap,
  depth: number,
  limit: OccurrenceLimit,
): D[] {
  const expansion = new PageExpansion(related, limit);
  return page.map((doc) => expansion.expand(doc, depth, []).doc);
}
