import { ObjectId, type Db } from 'mongodb';
import { createHash } from 'node:crypto';
import type { Writable } from 'node:stream';
import { mediaFiles } from '../store/media.js';
import { FileStoreError, UploadTooLargeError } from '../errors/domain-errors.js';
import { HEADER_BYTES, probeImageSize } from './image-size.js';
import { cleanOriginalName, deriveMediaName } from './media-name.js';
import { resolveType } from './sniff-type.js';

/** What storing a file yields: the GridFS file and what its first bytes and name say about it. */
export interface StoredUpload {
  file_id: ObjectId;
  name: string;
  original_name: string;
  size: number;
  type: string;
  width: number | null;
  height: number | null;
  /** sha256 of the bytes, hex: a retried upload's Idempotency-Key is checked against the file too. */
  sha256: string;
}

/** Keeps a copy of the first `max` bytes; copies, so the stream's larger buffers are not retained. */
class HeadBytes {
  private readonly parts: Buffer[] = [];
  private length = 0;

  constructor(private readonly max: number) {}

  add(chunk: Buffer): void {
    if (this.length >= this.max) return;
    const part = Buffer.from(chunk.subarray(0, this.max - this.length));
    this.parts.push(part);
    this.length += part.length;
  }

  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function settle(run: (done: (err?: Error | null) => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    run((err) => {
      if (err) reject(new FileStoreError(err));
      else resolve();
    });
  });
}

export interface StoreOptions {
  bucketId: ObjectId;
  /** The name the client gave the file; cleaned before use. */
  originalName: string;
  /** The type the client claimed; the first bytes win where they are recognisable. */
  claimedType: string;
  maxBytes: number;
  /** Told before the over-limit error is thrown (the upload route answers with it first). */
  onTooLarge?: (err: UploadTooLargeError) => void;
  /** Hands a partial file to whoever removes stored bytes; it must not throw. */
  discard: (fileId: ObjectId) => void;
  /** The stored name's prefix; default random. An import derives it, so a rerun finds the same name. */
  namePrefix?: string;
}

/**
 * Streams a file into GridFS without holding it in memory: each piece is written (and awaited)
 * as it arrives, so backpressure reaches the source. Because every write is awaited, no write is
 * in flight when an error is caught, so no chunk of the partial file handed to `discard` can
 * arrive after its removal. The type comes from the first bytes, the name from the client's.
 */
export async function storeStream(
  db: Db,
  source: AsyncIterable<unknown> | Iterable<unknown>,
  opts: StoreOptions,
): Promise<StoredUpload> {
  const originalName = cleanOriginalName(opts.originalName);
  const fileId = new ObjectId();
  const upload = mediaFiles(db).openUploadStreamWithId(fileId, originalName, {
    metadata: { bucket_id: opts.bucketId },
  });
  // Failures arrive through the write/end callbacks; the listener only keeps 'error' from being unhandled.
  upload.on('error', () => {});
  const head = new HeadBytes(HEADER_BYTES);
  const digest = createHash('sha256');
  let size = 0;
  try {
    for await (const piece of source) {
      const chunk = piece as Buffer;
      size += chunk.length;
      if (size > opts.maxBytes) {
        const tooLarge = new UploadTooLargeError(opts.maxBytes);
        opts.onTooLarge?.(tooLarge);
        throw tooLarge;
      }
      head.add(chunk);
      digest.update(chunk);
      await settle((done) => (upload as Writable).write(chunk, done));
    }
    await settle((done) => upload.end(done));
  } catch (err) {
    opts.discard(fileId);
    throw err;
  }
  const bytes = head.bytes();
  const type = resolveType(bytes, opts.claimedType, originalName);
  const dims = await probeImageSize(type, bytes);
  return {
    file_id: fileId,
    name: deriveMediaName(originalName, type, opts.namePrefix),
    original_name: originalName,
    size,
    type,
    width: dims?.width ?? null,
    height: dims?.height ?? null,
    sha256: digest.digest('hex'),
  };
}
