import { ObjectId, type Collection, type Db } from 'mongodb';
import { isDuplicateKey } from '../errors/mongo-errors.js';
import { retryLater } from '../errors/retry-later.js';

/** One per Bucket while one of its Object type writes runs; `_id` is the Bucket id. */
interface TypeWriteLeaseDoc {
  _id: ObjectId;
  holder: string;
  until: Date;
}

export function typeWriteLeasesCollection(db: Db): Collection<TypeWriteLeaseDoc> {
  return db.collection<TypeWriteLeaseDoc>('type_write_leases');
}

export interface LeaseTiming {
  /** How long a lease lasts unless renewed: the longest a crashed holder blocks the Bucket's type writes. */
  leaseMs: number;
  renewEveryMs: number;
  /** How long a type write waits for the lease before it is answered 503. */
  waitMs: number;
  pollMs: number;
}

export const TYPE_WRITE_LEASE: LeaseTiming = { leaseMs: 30_000, renewEveryMs: 10_000, waitMs: 10_000, pollMs: 50 };

/** Seconds a client refused for a busy lease is asked to wait: long enough for a rename to progress. */
const RETRY_AFTER_SECONDS = 5;

export interface TypeWriteLease {
  /** Throws once the lease may have passed to another process; call it between steps of a write. */
  assertHeld(): void;
}

function busy(): Error {
  return retryLater(
    503,
    'Another change to the Object types of this Bucket is in progress; retry shortly',
    'type_write_busy',
    RETRY_AFTER_SECONDS,
  );
}

/** One atomic write: takes a free or lapsed lease; a live one makes the upsert collide on `_id`. */
async function tryAcquire(coll: Collection<TypeWriteLeaseDoc>, bucketId: ObjectId, holder: string, ms: number) {
  const now = Date.now();
  try {
    await coll.updateOne(
      { _id: bucketId, until: { $lte: new Date(now) } },
      { $set: { holder, until: new Date(now + ms) } },
      { upsert: true },
    );
    return now + ms;
  } catch (err) {
    if (isDuplicateKey(err)) return null;
    throw err;
  }
}

/**
 * Runs `work` while holding the Bucket's type-write lease, so Object type writes of a Bucket take
 * turns across every app process. A rename rewrites other types and moves Objects in several
 * steps; a type write running between them could name the old slug again or undo a step, and
 * without transactions only taking turns rules that out. Type writes are rare, so the cost is
 * small. The lease is renewed while `work` runs and lapses on its own if the holder dies.
 */
export async function withTypeWriteLease<T>(
  db: Db,
  bucketId: ObjectId,
  work: (lease: TypeWriteLease) => Promise<T>,
  timing: LeaseTiming = TYPE_WRITE_LEASE,
): Promise<T> {
  const coll = typeWriteLeasesCollection(db);
  const holder = new ObjectId().toHexString();
  const deadline = Date.now() + timing.waitMs;
  let heldUntil = await tryAcquire(coll, bucketId, holder, timing.leaseMs);
  while (heldUntil === null) {
    if (Date.now() >= deadline) throw busy();
    await new Promise((resolve) => setTimeout(resolve, timing.pollMs));
    heldUntil = await tryAcquire(coll, bucketId, holder, timing.leaseMs);
  }
  let until = heldUntil;
  let lost = false;
  const timer = setInterval(() => {
    const next = Date.now() + timing.leaseMs;
    coll.updateOne({ _id: bucketId, holder }, { $set: { until: new Date(next) } }).then(
      (r) => {
        if (r.matchedCount === 0) lost = true;
        else until = next;
      },
      // A failed renewal is not fatal by itself: assertHeld notices once the lease would have lapsed.
      () => undefined,
    );
  }, timing.renewEveryMs);
  timer.unref();
  try {
    return await work({
      assertHeld: () => {
        if (lost || Date.now() >= until) throw busy();
      },
    });
  } finally {
    clearInterval(timer);
    // If this fails the lease simply lapses; the write's own outcome is what the caller hears.
    await coll.deleteOne({ _id: bucketId, holder }).catch(() => undefined);
  }
}
