import { MongoClient, type Db, type ObjectId } from 'mongodb';
import { Client } from './http.js';
import { certain, type Expected, type Ledger, type MediaEntry, type ObjectEntry } from './ledger.js';
import { holds, snapshot, viewProblems, type Snapshot, type StoredObject } from './observed.js';
import { Random } from './random.js';
import { DB_NAME } from './service.js';
import { BUCKET } from './setup.js';
import { Stats } from './stats.js';
import { BASE } from './worker-state.js';

export interface LostWrite {
  what: 'object' | 'media';
  token: string;
  id: string | null;
  /** The last writes and their fates. */
  history: string[];
  expected: string;
  found: string;
}

export interface Verification {
  objects: number;
  media: number;
  lost: LostWrite[];
  /** Writes without a clear answer: how many turned out to have happened, and how many not. */
  unknownApplied: number;
  unknownNotApplied: number;
  /** One create that left two Objects. */
  duplicates: number;
  viewProblems: Array<{ id: string; problem: string }>;
  /** Media records whose stored file is missing or of another length, acknowledged or not. */
  damagedMedia: string[];
  pendingMarkers: number;
  /** The same check through the API (a sample), reading through and from the cache. */
  api: { checked: number; mismatches: string[] };
}

type Found = { latest: StoredObject | undefined; live: StoredObject | undefined };

function describe(e: Expected): string {
  if (e === 'gone') return 'gone';
  return `${e.status} "${e.values.title}", live ${e.live ? `"${e.live.title}"` : 'none'}`;
}

function describeFound(f: Found): string {
  if (!f.latest && !f.live) return 'gone';
  return `${f.latest ? `${f.latest.status} "${f.latest.title}"` : 'no latest'}, live ${f.live ? `"${f.live.title}"` : 'none'}`;
}

/**
 * `latestOnly`: the latest version decides (it is the commit point of a write, see
 * lib/objects/write/version-write.ts); the live view may still lag behind an interrupted write until repair runs,
 * which the view check reports on its own.
 */
function matches(e: Expected, f: Found, latestOnly: boolean): boolean {
  if (e === 'gone') return !f.latest && (latestOnly || !f.live);
  if (!f.latest || f.latest.status !== e.status || !holds(f.latest, e.values)) return false;
  if (latestOnly) return true;
  return e.live === null ? !f.live : !!f.live && holds(f.live, e.live);
}

function found(s: Snapshot, entry: ObjectEntry): Found[] {
  if (entry.id) return [{ latest: s.latest.get(entry.id), live: s.live.get(entry.id) }];
  const docs = s.byToken.get(entry.token) ?? [];
  if (docs.length === 0) return [{ latest: undefined, live: undefined }];
  return docs.map((d) => ({ latest: d, live: s.live.get(d._id.toHexString()) }));
}

function checkObjects(s: Snapshot, ledger: Ledger, v: Verification, repaired: boolean): void {
  for (const entry of ledger.objects) {
    const all = found(s, entry);
    // By token, not id: a retried create that made a second Object leaves one the id does not name.
    if ((s.byToken.get(entry.token)?.length ?? 0) > 1) v.duplicates++;
    // Before a restart has repaired interrupted writes, an Object whose last write had no clear
    // answer may have its views half-way; every acknowledged write is checked in full.
    const latestOnly = !repaired && entry.candidates.length > 1;
    for (const f of all) {
      const hit = entry.candidates.findIndex((c) => matches(c, f, latestOnly));
      if (entry.candidates.length > 1 && hit >= 0) {
        if (hit === 0) v.unknownNotApplied++;
        else v.unknownApplied++;
      }
      if (hit >= 0 || !entry.acked) continue;
      v.lost.push({
        what: 'object',
        token: entry.token,
        id: entry.id,
        history: entry.history,
        expected: entry.candidates.map(describe).join(' or '),
        found: describeFound(f),
      });
    }
  }
}

interface StoredMedia {
  _id: ObjectId;
  name: string;
  size: number;
  file_id: ObjectId;
  metadata: { token?: string };
}

async function checkMedia(db: Db, bucketId: ObjectId, ledger: Ledger, v: Verification): Promise<void> {
  const docs = await db.collection<StoredMedia>('media').find({ bucket_id: bucketId }).toArray();
  const files = await db
    .collection<{ _id: ObjectId; length: number }>('media_files.files')
    .find({}, { projection: { length: 1 } })
    .toArray();
  const length = new Map(files.map((f) => [f._id.toHexString(), f.length]));
  const byToken = new Map(docs.map((d) => [d.metadata.token ?? '', d]));
  const check = (entry: MediaEntry) => {
    const doc = byToken.get(entry.token);
    const state = doc ? 'present' : 'gone';
    if (entry.candidates.length > 1) {
      if (state === 'gone') v.unknownNotApplied++;
      else v.unknownApplied++;
    }
    const file = doc ? length.get(doc.file_id.toHexString()) : undefined;
    if (doc && (doc.size !== entry.size || file !== entry.size)) {
      v.damagedMedia.push(
        `${entry.token} ${doc.name} (upload ${entry.acked ? 'acknowledged' : 'without a clear answer'}): ` +
          `record ${doc.size} bytes, file ${file === undefined ? 'missing' : `${file} bytes`}`,
      );
      return;
    }
    if (entry.candidates.includes(state) || !entry.acked) return;
    v.lost.push({
      what: 'media',
      token: entry.token,
      id: entry.id,
      history: [],
      expected: `${entry.candidates.join(' or ')} (${entry.size} bytes)`,
      found: state,
    });
  };
  ledger.media.forEach(check);
}

const API_SAMPLE = 300;

/** A sample of Objects in a certain state, read through the service, latest and live views. */
async function checkApi(baseUrl: string, readKey: string, ledger: Ledger, v: Verification): Promise<void> {
  const client = new Client(baseUrl, '', new Stats());
  const rand = new Random(7);
  const sure = ledger.objects.filter((e) => e.id && certain(e) !== null);
  for (let i = 0; i < Math.min(API_SAMPLE, sure.length); i++) {
    const entry = sure[rand.int(0, sure.length)];
    const state = entry ? certain(entry) : null;
    if (!entry?.id || state === null) continue;
    for (const [status, useCache] of [
      ['any', 'false'],
      ['published', 'true'],
    ] as const) {
      const want = state === 'gone' ? null : status === 'any' ? state.values.title : (state.live?.title ?? null);
      const q = new URLSearchParams({ read_key: readKey, status, useCache, props: 'id,title,status' });
      const a = await client.request('verify', { path: `${BASE}/objects/${entry.id}?${q}`, expect: [200, 404] });
      v.api.checked++;
      const got =
        a.sent === true && a.status === 200
          ? (a.body as { object: { title: string } }).object.title
          : a.sent === true && a.status === 404
            ? null
            : 'error';
      if (got !== want)
        v.api.mismatches.push(`${entry.id} status=${status}: got ${String(got)}, expected ${String(want)}`);
    }
  }
}

/** Compares the ledger with what is stored, and every Object's views with each other. */
export async function verify(
  engineUri: string,
  baseUrl: string,
  readKey: string,
  ledger: Ledger,
  repaired: boolean,
): Promise<Verification> {
  const client = new MongoClient(engineUri, { serverSelectionTimeoutMS: 30_000 });
  await client.connect();
  try {
    const db = client.db(DB_NAME);
    const bucket = await db.collection<{ _id: ObjectId }>('buckets').findOne({ slug: BUCKET });
    if (!bucket) throw new Error(`bucket "${BUCKET}" is not in the database`);
    const s = await snapshot(db, bucket._id);
    const v: Verification = {
      objects: ledger.objects.length,
      media: ledger.media.length,
      lost: [],
      unknownApplied: 0,
      unknownNotApplied: 0,
      duplicates: 0,
      viewProblems: viewProblems(s),
      damagedMedia: [],
      pendingMarkers: s.pendingMarkers,
      api: { checked: 0, mismatches: [] },
    };
    checkObjects(s, ledger, v, repaired);
    await checkMedia(db, bucket._id, ledger, v);
    await checkApi(baseUrl, readKey, ledger, v);
    return v;
  } finally {
    await client.close();
  }
}
