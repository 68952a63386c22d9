import { ObjectId, type Db } from 'mongodb';
import type { Values } from './ledger.js';
import { tokenOf } from './worker-state.js';

/**
 * The stored side of the check, read straight from the database (the engine the server
 * advertises in DATA_DIR/engine.json), not through the service under test.
 */
export interface StoredObject {
  _id: ObjectId;
  title: string;
  status: 'published' | 'draft';
  slug: string;
  content: string;
  metadata: Record<string, unknown>;
}

export interface StoredRevision {
  object_id: ObjectId;
  title: string;
  status: string;
  metadata: Record<string, unknown>;
  created_at: Date;
}

export interface Snapshot {
  latest: Map<string, StoredObject>;
  live: Map<string, StoredObject>;
  /** The newest revision of each Object (by created_at, then _id). */
  lastRevision: Map<string, StoredRevision>;
  /** Latest versions by the token that starts their title. */
  byToken: Map<string, StoredObject[]>;
  /** Work crashed writes still owe: pending-write markers, and Object versions carrying their follow-ups. */
  pendingMarkers: number;
}

/** A stable text form of a stored value: ObjectIds as hex, Dates as ISO strings, keys sorted. */
export function canon(v: unknown): string {
  if (v instanceof ObjectId) return JSON.stringify(v.toHexString());
  if (v instanceof Date) return JSON.stringify(v.toISOString());
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canon(x)}`).join(',')}}`;
  }
  // JSON.stringify(undefined) is undefined, whatever its declared type says.
  return v === undefined ? 'undefined' : JSON.stringify(v);
}

/** Does the stored Object hold these values? Fields the soak never set are not compared. */
export function holds(doc: { title: string; metadata: Record<string, unknown> }, v: Values): boolean {
  if (doc.title !== v.title) return false;
  for (const key of ['body', 'score', 'author', 'image', 'related'] as const) {
    const want = v[key];
    if (want === undefined) continue;
    const got = doc.metadata[key];
    const text = got instanceof ObjectId ? got.toHexString() : got;
    if (String(text) !== String(want)) return false;
  }
  return true;
}

const PROJECTION = { _id: 1, title: 1, status: 1, slug: 1, content: 1, metadata: 1 } as const;

export async function snapshot(db: Db, bucketId: ObjectId): Promise<Snapshot> {
  const latestDocs = await db
    .collection<StoredObject>('objects')
    .find({ bucket_id: bucketId }, { projection: PROJECTION })
    .toArray();
  const liveDocs = await db
    .collection<StoredObject>('published_objects')
    .find({ bucket_id: bucketId }, { projection: PROJECTION })
    .toArray();
  const lastRevision = new Map<string, StoredRevision>();
  const revisions = db
    .collection<StoredRevision>('revisions')
    .find({ bucket_id: bucketId }, { projection: { object_id: 1, title: 1, status: 1, metadata: 1, created_at: 1 } })
    .sort({ created_at: 1, _id: 1 });
  for await (const r of revisions) lastRevision.set(r.object_id.toHexString(), r);
  const byToken = new Map<string, StoredObject[]>();
  for (const d of latestDocs) {
    const token = tokenOf(d.title);
    byToken.set(token, [...(byToken.get(token) ?? []), d]);
  }
  return {
    latest: new Map(latestDocs.map((d) => [d._id.toHexString(), d])),
    live: new Map(liveDocs.map((d) => [d._id.toHexString(), d])),
    lastRevision,
    byToken,
    pendingMarkers:
      (await db.collection('pending_writes').countDocuments({ bucket_id: bucketId })) +
      (await db.collection('objects').countDocuments({ bucket_id: bucketId, pending: { $exists: true } })),
  };
}

/** Where an Object's latest version, live version and last revision disagree. */
export function viewProblems(s: Snapshot): Array<{ id: string; problem: string }> {
  const problems: Array<{ id: string; problem: string }> = [];
  for (const [id, latest] of s.latest) {
    const rev = s.lastRevision.get(id);
    if (!rev) problems.push({ id, problem: 'no revision' });
    else if (
      rev.title !== latest.title ||
      rev.status !== latest.status ||
      canon(rev.metadata) !== canon(latest.metadata)
    )
      problems.push({
        id,
        problem: `last revision differs from the latest version ("${rev.title}" vs "${latest.title}")`,
      });
    if (latest.status !== 'published') continue;
    const live = s.live.get(id);
    if (!live) problems.push({ id, problem: 'published, but no live version' });
    else if (
      live.title !== latest.title ||
      live.slug !== latest.slug ||
      live.content !== latest.content ||
      canon(live.metadata) !== canon(latest.metadata)
    )
      problems.push({
        id,
        problem: `live version differs from the published latest ("${live.title}" vs "${latest.title}")`,
      });
  }
  for (const id of s.live.keys())
    if (!s.latest.has(id)) problems.push({ id, problem: 'live version of a deleted Object' });
  for (const id of s.lastRevision.keys())
    if (!s.latest.has(id)) problems.push({ id, problem: 'revisions of a deleted Object' });
  return problems;
}
