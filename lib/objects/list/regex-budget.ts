import type { Document } from 'mongodb';
import { megabytes } from '../../errors/domain-limits.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { retryLater } from '../../errors/retry-later.js';
import type { PerClientLimit } from '../../http/per-client-limit.js';
import { regexOn, withoutRegex } from '../../query/regex-scan.js';
import type { ObjectView } from '../object-views.js';

/** Seconds a list refused for too many `$regex` reads of its Bucket at once is told to wait. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * A `$regex` on `content` (Objects' unbounded text) is the one condition whose cost grows with the
 * size of what it tests, and the embedded engine runs it with a backtracking matcher that
 * `maxTimeMS` does not stop. Before such a list runs, the text it could scan is summed over the
 * documents the other conditions leave (one aggregation, no regex run); past `scanBytes` the list
 * answers 400 `query_too_broad` at once. And a Bucket runs at most `gate.max` of them at once per
 * process, so one tenant's searches cannot hold the engine others share. Returns the release of
 * the Bucket's turn (a no-op when the filter has no such regex).
 */
export async function admitRegexScan(
  view: ObjectView,
  filter: Document,
  scanBytes: number | undefined,
  gate: { limit: PerClientLimit; bucket: string } | undefined,
): Promise<() => void> {
  if (!regexOn(filter, 'content')) return () => undefined;
  const release = gate ? gate.limit.tryAcquire(gate.bucket) : () => undefined;
  if (!release) {
    throw retryLater(
      429,
      `Too many lists with a $regex on content are running for this Bucket (at most ${String(gate?.limit.max)} at once); retry shortly`,
      'rate_limited',
      BUSY_RETRY_AFTER_SECONDS,
    );
  }
  try {
    if (scanBytes !== undefined && scanBytes > 0) await assertScanWithin(view, filter, scanBytes);
  } catch (err) {
    release();
    throw err;
  }
  return release;
}

async function assertScanWithin(view: ObjectView, filter: Document, scanBytes: number): Promise<void> {
  const [row] = await view.coll
    .aggregate<{ bytes: number }>(
      [
        { $match: withoutRegex(filter) },
        { $group: { _id: null, bytes: { $sum: { $strLenBytes: { $ifNull: ['$content', ''] } } } } },
      ],
      view.readOptions,
    )
    .toArray();
  const bytes = row?.bytes ?? 0;
  if (bytes <= scanBytes) return;
  throw new BadRequestError(
    `The $regex on content would scan ${megabytes(bytes)} MB of text, more than the ${megabytes(scanBytes)} MB a request ` +
      'may: narrow the other conditions (a type, ids, a date range, a Metafield value) so fewer Objects are searched',
    'query_too_broad',
  );
}
