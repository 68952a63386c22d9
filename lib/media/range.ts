export interface ByteRange {
  /** First byte, inclusive. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

const SINGLE = /^bytes=(\d*)-(\d*)$/;

/**
 * A `Range` header against a file of `size` bytes: the one range to send, 'unsatisfiable' for
 * 416, or null to send the whole file. Only single byte ranges are honoured; multiple ranges
 * and malformed headers are ignored (the whole file is sent), which HTTP allows.
 * Not range-parser (Express's req.range): it answers unsatisfiable for a suffix longer than the
 * file, which RFC 9110 serves whole, and for a reversed range, which is invalid and ignored here.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const m = SINGLE.exec(header.replace(/\s+/g, ''));
  if (!m) return null;
  const [, first, last] = m;
  if (first === '' && last === '') return null;
  if (first === '') {
    // Suffix form: the last N bytes.
    const n = Number(last);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? Number.MAX_SAFE_INTEGER : Number(last);
  // A last byte before the first is a malformed range, which is ignored rather than refused.
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}

/** Whether an If-None-Match header names this ETag (weak comparison, as caches use it). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}
