import type { Db } from 'mongodb';
import {
  bucketsCollection,
  objectsCollection,
  objectTypesCollection,
  publishedObjectsCollection,
  revisionsCollection,
  writeNotesCollection,
} from './collections.js';

/** The fields an Object list sorts by without a Metafield (lib/query/sort.ts): each has an index below. */
export const OBJECT_SORT_FIELDS = ['created_at', 'modified_at', 'order'] as const;

/** Unique over `singleton_key`: one Object per locale of a singleton type (lib/objects/write/singletons.ts). */
export const SINGLETON_INDEX = 'singleton_unique';
/** Unique over `idempotency_key`: one Object per Bucket and Idempotency-Key (lib/objects/write/object-idempotency.ts). */
export const IDEMPOTENCY_INDEX = 'idempotency_unique';

export interface IndexSpec {
  key: Readonly<Record<string, 1 | -1>>;
  name: string;
}

/**
 * The indexes that serve Object lists, on the latest versions and on the live copies alike. Every
 * list filter pins `bucket_id` and `status` (lib/objects/object-views.ts) and, when the query
 * names one, `type`; the page is then read in index order from `bucket_id, type, status, <sort>,
 * _id` or, without a type, from `bucket_id, status, <sort>, _id`, never sorted in memory. The
 * index-contract unit test holds the list query builder to this table.
 */
export const OBJECT_LIST_INDEXES: readonly IndexSpec[] = [
  // The first, under its original name: createIndex refuses a second name for an existing key.
  { key: { bucket_id: 1, type: 1, status: 1, order: -1, _id: -1 }, name: 'bucket_type_status_order' },
  ...OBJECT_SORT_FIELDS.filter((f) => f !== 'order').map((f): IndexSpec => ({
    key: { bucket_id: 1, type: 1, status: 1, [f]: -1, _id: -1 },
    name: `bucket_type_status_${f}`,
  })),
  ...OBJECT_SORT_FIELDS.map((f): IndexSpec => ({
    key: { bucket_id: 1, status: 1, [f]: -1, _id: -1 },
    name: `bucket_status_${f}`,
  })),
  // Relationship lookups the other way round: which Objects reference an id.
  { key: { bucket_id: 1, refs: 1 }, name: 'bucket_refs' },
];

/** One Object's revisions by creation (lib/objects/revisions.ts revisionListQuery), either direction. */
export const REVISION_LIST_INDEX: IndexSpec = {
  key: { bucket_id: 1, object_id: 1, created_at: -1, _id: -1 },
  name: 'object_history',
};

/**
 * The index of one sortable Metafield key, created when a type marking it is saved. Named by key,
 * not by type, so types sharing a key name share the index (bucket_id and type lead it anyway).
 * Sorting by metadata requires a type in the query (lib/query/sort.ts), so no typeless variant.
 */
export function sortableIndex(key: string): IndexSpec {
  return { key: { bucket_id: 1, type: 1, status: 1, [`metadata.${key}`]: 1, _id: 1 }, name: `sortable_${key}` };
}

// Every createIndex here passes `undefined` command options: the driver deprecated the
// two-argument form, which mixed index and command options in one object.

/** Idempotent: createIndex is a no-op when an identical index exists, so every process may run it. */
export async function ensureContentIndexes(db: Db): Promise<void> {
  await bucketsCollection(db).createIndex({ slug: 1 }, { unique: true, name: 'slug_unique' }, undefined);
  await objectTypesCollection(db).createIndex(
    { bucket_id: 1, slug: 1 },
    { unique: true, name: 'bucket_slug_unique' },
    undefined,
  );
  // Slugs are unique per type and locale among latest versions; the index, not a read-then-write,
  // keeps that true under races. A live copy may still carry a slug a newer draft changed.
  await objectsCollection(db).createIndex(
    { bucket_id: 1, type: 1, locale: 1, slug: 1 },
    { unique: true, name: 'bucket_type_locale_slug_unique' },
    undefined,
  );
  // One Object per locale of a singleton type. Sparse rather than partial: mongo-java-server
  // ignores partialFilterExpression, and only singleton Objects carry the field.
  await objectsCollection(db).createIndex(
    { singleton_key: 1 },
    { unique: true, sparse: true, name: SINGLETON_INDEX },
    undefined,
  );
  // A create's Idempotency-Key, carried by the Object it wrote; sparse for the same reason.
  await objectsCollection(db).createIndex(
    { idempotency_key: 1 },
    { unique: true, sparse: true, name: IDEMPOTENCY_INDEX },
    undefined,
  );
  await publishedObjectsCollection(db).createIndex(
    { bucket_id: 1, type: 1, locale: 1, slug: 1 },
    { name: 'bucket_type_locale_slug' },
    undefined,
  );
  for (const coll of [objectsCollection(db), publishedObjectsCollection(db)]) {
    for (const index of OBJECT_LIST_INDEXES) await coll.createIndex(index.key, { name: index.name }, undefined);
  }
  await objectsCollection(db).createIndex({ publish_at: 1 }, { name: 'publish_at', sparse: true }, undefined);
  await objectsCollection(db).createIndex({ unpublish_at: 1 }, { name: 'unpublish_at', sparse: true }, undefined);
  await revisionsCollection(db).createIndex(REVISION_LIST_INDEX.key, { name: REVISION_LIST_INDEX.name }, undefined);
  // Work a version write carries until it is done (lib/objects/write/version-write.ts): start-up repair
  // and the stale sweep find it by when it began. Sparse: only Objects mid-write hold the field.
  await objectsCollection(db).createIndex({ 'pending.since': 1 }, { name: 'pending_since', sparse: true }, undefined);
  // Write notes are read by `_id`; deleting a Bucket removes its own by Bucket.
  await writeNotesCollection(db).createIndex({ bucket_id: 1 }, { name: 'bucket' }, undefined);
}

/** The sortableIndex of each key, on the latest versions and on the live copies. */
export async function ensureSortableIndexes(db: Db, keys: string[]): Promise<void> {
  for (const key of keys) {
    const index = sortableIndex(key);
    for (const coll of [objectsCollection(db), publishedObjectsCollection(db)]) {
      await coll.createIndex(index.key, { name: index.name }, undefined);
    }
  }
}
