import { ObjectId } from 'mongodb';
import type { ObjectDoc } from '../db/collections.js';

/** Related Objects by hex id; null marks an id that was looked up and is not visible. */
export type RelatedMap = Map<string, ObjectDoc | null>;

/**
 * A page document as `props` projected it: it keeps `_id` but may lack `metadata`, whatever the
 * ObjectDoc type of the query result says.
 */
type ProjectedDoc = Pick<ObjectDoc, '_id'> & Partial<Pick<ObjectDoc, 'metadata'>>;

const UNRESOLVED = Symbol('unresolved');

/**
 * Stored metadata holds relationships as ObjectIds (JSON input can produce no other ObjectIds),
 * so every ObjectId found while walking metadata is a relationship, whether at top level, in a
 * parent's children or in repeater items. Each is replaced by its related Object, expanded in
 * turn until `depth` levels are used. An Object already on its own expansion path stays an id
 * (cycle cut); an Object that is missing or not visible under the status rules is dropped:
 * null for a single relationship, left out of a multiple one.
 */
export function expandObject<D extends ProjectedDoc>(
  doc: D,
  related: RelatedMap,
  depth: number,
  path: ReadonlySet<string> = new Set(),
): D {
  if (depth <= 0 || !doc.metadata) return doc;
  const onPath = new Set(path).add(doc._id.toHexString());
  const walk = (value: unknown): unknown => {
    if (value instanceof ObjectId) {
      const hex = value.toHexString();
      if (onPath.has(hex)) return value;
      const target = related.get(hex);
      return target ? expandObject(target, related, depth - 1, onPath) : UNRESOLVED;
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
  return { ...doc, metadata: walk(doc.metadata) as Record<string, unknown> };
}
