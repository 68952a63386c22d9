import { BSON, type AbstractCursor, type Document } from 'mongodb';
import type { Config } from '../config.js';
import { megabytes, ResponseTooLargeError } from '../errors/domain-limits.js';
import { RESPONSE_CAP_BYTES } from './limits.js';

/** What one read may load and send. */
export interface ReadBounds {
  /** Distinct related Objects one response may load through depth. */
  maxRelated: number;
  /** Stored (BSON) bytes one response may load; the same number caps the JSON sent. */
  maxBytes: number;
  /** Bytes of text a `$regex` on `content` may scan (lib/objects/list/regex-budget.ts); 0: no bound. */
  regexScanBytes?: number;
}

export function readBounds(
  config: Pick<Config, 'maxRelatedObjects'> & Partial<Pick<Config, 'regexScanBytes'>>,
): ReadBounds {
  return {
    maxRelated: config.maxRelatedObjects,
    maxBytes: RESPONSE_CAP_BYTES,
    ...(config.regexScanBytes !== undefined && { regexScanBytes: config.regexScanBytes }),
  };
}

/**
 * Counts the stored size of documents as they are read and refuses the read once the total
 * crosses the cap, so a page of huge documents is never held whole. Stored BSON is what the
 * response is built from, and it is the size known before anything is rendered.
 */
export class ByteBudget {
  private used = 0;

  constructor(readonly max: number) {}

  add(doc: Document): void {
    this.used += BSON.calculateObjectSize(doc);
    if (this.used > this.max) {
      throw new ResponseTooLargeError(this.max, `${megabytes(this.used)} MB of stored data read`);
    }
  }
}

/**
 * A cursor's documents, read batch by batch within the budget; the cursor is closed as soon as
 * the budget is crossed, so neither the rest of the batch nor later batches are kept. `accept`
 * picks the documents kept (and counted); it may throw to stop the read. Documents are taken a
 * batch at a time, one await per batch rather than per document.
 */
export async function readWithin<T extends Document>(
  cursor: AbstractCursor<T>,
  budget: ByteBudget,
  accept: (doc: T) => boolean = () => true,
): Promise<T[]> {
  const docs: T[] = [];
  try {
    while (await cursor.hasNext()) {
      for (const doc of cursor.readBufferedDocuments()) {
        if (!accept(doc)) continue;
        budget.add(doc);
        docs.push(doc);
      }
    }
  } finally {
    await cursor.close();
  }
  return docs;
}
