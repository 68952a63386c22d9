import type { BucketDoc, ObjectTypeDoc } from '../../db/collections.js';
import { readGeneration, typeGenerationField } from '../../cache/bucket-generation.js';
import type { KeptOrder } from '../../cache/list-orders.js';
import { referencedTypes } from '../../metafields/type-references.js';

/* Which Object types a list read shows, so its cached answer, total and order key on their generations alone. */

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

/** What a list's kept order records of the Bucket's state (lib/cache/list-orders.ts). */
export type OrderState = Omit<KeptOrder, 'order' | 'notesAt'>;

/** The state of `bucket` a list of the one type its query pins (else of any Object) is read at. */
export function orderState(
  bucket: BucketDoc,
  queryText: string | undefined,
  types: ReadonlyMap<string, ObjectTypeDoc>,
): OrderState {
  const shown = typesShown(pinnedType(queryText), 0, types);
  const type = shown?.[0] ?? null;
  const field = type === null ? '' : typeGenerationField(type);
  return {
    generation: readGeneration(bucket, shown),
    bucketGeneration: bucket.generation,
    type,
    typeGeneration: type === null ? 0 : (bucket.type_generations?.[field] ?? 0),
    writeCount: type === null ? 0 : (bucket.recent_write_counts?.[field] ?? 0),
  };
}
