import type { Collection, Db, ObjectId } from 'mongodb';
import type { StoredPlan } from '../config/plan.js';
import type { Metafield } from '../types/metafield.js';

/** A Bucket: the tenant every content document is keyed by. Keys are stored as SHA-256 digests. */
export interface BucketDoc {
  _id: ObjectId;
  slug: string;
  read_key_hash: string | null;
  write_key_hash: string | null;
  /**
   * Bumped by every write to the Bucket except Object version writes, which bump the two below
   * instead; read-cache keys are made of these (lib/cache/bucket-generation.ts), so all
   * processes see writes.
   */
  generation: number;
  /** Bumped by every Object version write. */
  object_generation?: number;
  /** Bumped by each Object version write of a type, by the type's (encoded) slug. */
  type_generations?: Record<string, number>;
  /**
   * By the same keys, the ids of the Objects the last version writes of each type sent one command
   * at a time (on servers without bulkWrite) wrote, oldest first: each such bump of a type's
   * generation pushes one, in the same update, so a kept list order behind by n generations knows
   * which Objects to read again (lib/objects/list/object-list-order.ts). Writes sent as one
   * bulkWrite note theirs in `write_notes` instead (WriteNotesDoc), keeping the Bucket small.
   */
  recent_writes?: Record<string, ObjectId[]>;
  /** By the same keys, how many ids were ever pushed there (by the writes noted on the Bucket). */
  recent_write_counts?: Record<string, number>;
  /** Bumped by every webhook write (lib/webhooks/outbox.ts): events read the enabled webhooks by it. */
  webhook_generation?: number;
  created_at: Date;
  modified_at: Date;
  /** Limits set by `bucketctl set-plan` (lib/config/plan.ts); what it leaves out follows PLAN_MAX_*. */
  plan?: StoredPlan;
}

export function bucketsCollection(db: Db): Collection<BucketDoc> {
  return db.collection<BucketDoc>('buckets');
}

/** Every collection whose documents carry bucket_id, so deleting a Bucket removes all it owns. */
export const BUCKET_SCOPED_COLLECTIONS = [
  'object_types',
  'objects',
  'published_objects',
  'revisions',
  'media',
  'media_folders',
  'webhooks',
  'webhook_deliveries',
  'bucket_usage',
  'bucket_requests',
  'merge_requests',
  'blocks',
  'imports',
  'bucket_users',
  'extensions',
  'idempotency_keys',
  'write_notes',
];

/**
 * The Objects the last version writes of one type of one Bucket wrote, oldest first, sent as one
 * bulkWrite, in one of the type's parts (lib/cache/bucket-generation.ts): each write pushes its Object
 * after its views hold the new version and before it bumps the type's generation, so a kept list
 * order knows which Objects to read again however far behind it is, up to a few thousand writes.
 */
export interface WriteNotesDoc {
  /** The Bucket's id, the type's (encoded) slug and the part: `<bucket id>:<type>:<part>`. */
  _id: string;
  bucket_id: ObjectId;
  /** How many ids were ever pushed. */
  count: number;
  ids: ObjectId[];
}

export function writeNotesCollection(db: Db): Collection<WriteNotesDoc> {
  return db.collection<WriteNotesDoc>('write_notes');
}

export interface ObjectTypeDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  slug: string;
  title: string;
  singular: string;
  emoji: string;
  singleton: boolean;
  metafields: Metafield[];
  options: { slug_field: boolean; content_editor: boolean };
  localization: boolean;
  locales: string[];
  priority_locale: string | null;
  preview_link: string;
  extensions: unknown;
  order: number;
  created_at: Date;
  modified_at: Date;
  /** The slug before the last rename; `pending` while the rename's later steps are not all done (object-type-rename.ts). */
  rename?: { from: string; pending: boolean };
  /** The last Metafield key rename; `pending` while Objects may still hold values under `from` (metafield-key-move.ts). */
  key_rename?: { from: string; to: string; pending: boolean };
}

/**
 * An Object. `metadata` holds stored values: relationship ids (object, objects) as ObjectIds,
 * select-dropdown as the option key, date as "YYYY-MM-DD", file as the media name, parent as a
 * nested object, repeater as an array of objects. `refs` lists every related Object id found
 * anywhere in metadata, kept on write so relationship lookups need no knowledge of the type.
 */
export interface ObjectDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  type: string;
  slug: string;
  title: string;
  content: string;
  locale: string | null;
  thumbnail: string | null;
  status: 'published' | 'draft';
  metadata: Record<string, unknown>;
  /**
   * Metafields of this Object's own, beside its type's (lib/metafields/own.ts): one set for the
   * Object, written with its version in the same document write. Absent when it has none.
   */
  own_metafields?: Metafield[];
  refs: ObjectId[];
  order: number;
  created_at: Date;
  modified_at: Date;
  published_at: Date | null;
  created_by: string | null;
  modified_by: string | null;
  /** When set, the latest version is published automatically at this time. */
  publish_at?: Date | null;
  /** When set, the live version is withdrawn automatically at this time. */
  unpublish_at?: Date | null;
  /** Only on Objects of singleton types: the place this Object holds (see lib/objects/write/singletons.ts). */
  singleton_key?: string;
  /**
   * Only on Objects created with an Idempotency-Key: "<bucket id>:<key>", so a retry of the
   * create finds the Object even when the create's answer was never kept (object-idempotency.ts).
   */
  idempotency_key?: string;
  /** With idempotency_key: the hash of the create's request, so another request under the key is refused. */
  idempotency_request?: string;
  /** A scheduler's lease on this Object's due work, so one process does it once. */
  schedule_claim?: { by: string; until: Date } | null;
  /**
   * The follow-up work of the write that put this version down (live copy, revision, bump,
   * event), carried in the same single-document write and removed once done: see
   * lib/objects/write/repair.ts. Present only while that work may still be owed.
   */
  pending?: CarriedWork | CarriedDelete;
}

/**
 * A delete the Object carries until it is gone (lib/objects/write/delete-write.ts): the Object is
 * removed last, so whoever reads it meanwhile finishes the delete, its event rendered from it.
 */
export interface CarriedDelete {
  deletes: true;
  /** The version the delete put down (its modified_at), which its event names. */
  version: Date;
  notify: boolean;
  since: Date;
}

/** What repair needs to finish a version write after its commit point (lib/objects/write/repair.ts). */
export interface CarriedWork {
  /** The version it belongs to (its modified_at): work carried by an older version is not this one's. */
  version: Date;
  reason: RevisionDoc['reason'];
  /** The write takes the live version down instead of following the version's status. */
  withdraw: boolean;
  notify: boolean;
  /** When the write began, so the stale sweep tells a dead write's work from one still running. */
  since: Date;
}

export function objectTypesCollection(db: Db): Collection<ObjectTypeDoc> {
  return db.collection<ObjectTypeDoc>('object_types');
}

/**
 * Two views of every Object, same shape, same _id: `objects` holds each Object's latest version
 * (draft or published) and `published_objects` the version that is live, for Objects that have
 * one. Reads pick the view their status asks for, so filters, sorts, cursors and indexes work
 * identically on both and nothing has to be rewritten per status.
 */
export function objectsCollection(db: Db): Collection<ObjectDoc> {
  return db.collection<ObjectDoc>('objects');
}

export function publishedObjectsCollection(db: Db): Collection<ObjectDoc> {
  return db.collection<ObjectDoc>('published_objects');
}

/** An immutable version of an Object, recorded by every create, update, draft and publish. */
export interface RevisionDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  object_id: ObjectId;
  type: string;
  slug: string;
  title: string;
  content: string;
  metadata: Record<string, unknown>;
  status: 'published' | 'draft';
  created_at: Date;
  created_by: string | null;
  /** What made this version: create, edit, draft (POST revisions), publish, or the scheduler. */
  reason: 'create' | 'edit' | 'draft' | 'publish' | 'scheduled-publish' | 'scheduled-unpublish';
  /** The Object's own Metafields when the revision was recorded, which its metadata renders by. */
  own_metafields?: Metafield[];
}

export function revisionsCollection(db: Db): Collection<RevisionDoc> {
  return db.collection<RevisionDoc>('revisions');
}
