import type { BucketDoc, ObjectTypeDoc } from '../db/collections.js';
import { referencedTypes } from '../object-types/type-references.js';

/**
 * Which state of a Bucket a cached read was taken at. A Bucket keeps three kinds of generation
 * (bucket-generation.ts): `generation`, bumped by every write but Object version writes;
 * `object_generation`, bumped by every Object version write; and one per Object type, bumped by
 * the version writes of that type. A read that may show any Object keys on the first two; a read
 * that shows Objects of known types only keys on `generation` and those types' own, so a write
 * of another type leaves it (its response, kept order and total) in place.
 */

/** A type slug as a field name: no dots (paths) and no leading `$` (operators). */
export function typeGenerationField(slug: string): string {
  return encodeURIComponent(slug).replace(/\./g, '%2E');
}

/** The generation of a read of `types` only, or of any Object (null). */
export function readGeneration(bucket: BucketDoc, types: readonly string[] | null = null): string {
  if (types === null) return `${String(bucket.generation)}.${String(bucket.object_generation ?? 0)}`;
  const own = bucket.type_generations ?? {};
  const parts = [...new Set(types)].sort().map((t) => `${t}=${String(own[typeGenerationField(t)] ?? 0)}`);
  return `${String(bucket.generation)}:${parts.join(',')}`;
}

/** The one type a list's `query` (its JSON text) pins at its top level (`"type": "<slug>"`), if any. */
export function pinnedType(queryText: string | undefined): string | null {
  if (queryText === undefined) return null;
  let query: unknown;
  try {
    query = JSON.parse(queryText);
  } catch {
    return null;
  }
  if (typeof query !== 'object' || query === null || Array.isArray(query)) return null;
  const type = (query as Record<string, unknown>).type;
  return typeof type === 'string' ? type : null;
}

/**
 * The types a read of `type`'s Objects can show at `depth`: the type, and for each level of
 * depth the types its relationship Metafields name (and theirs, level by level). Null when
 * `type` is not known: then the read may show anything.
 */
export function typesShown(
  type: string | null,
  depth: number,
  types: ReadonlyMap<string, ObjectTypeDoc>,
): string[] | null {
  if (type === null || !types.has(type)) return null;
  const shown = new Set([type]);
  let level = [type];
  for (let d = 0; d < depth && level.length > 0; d++) {
    const next: string[] = [];
    for (const slug of level)
      for (const related of referencedTypes(types.get(slug)?.metafields ?? []))
        if (!shown.has(related)) {
          shown.add(related);
          next.push(related);
        }
    level = next;
  }
  return [...shown];
}

/** The generation of a list read: of its pinned type and what `depth` reaches from it, else of any Object. */
export function listGeneration(
  bucket: BucketDoc,
  queryText: string | undefined,
  depth: number,
  types: ReadonlyMap<string, ObjectTypeDoc>,
): string {
  return readGeneration(bucket, typesShown(pinnedType(queryText), depth, types));
}
