import type { BucketDoc } from '../db/collections.js';

/**
 * Which state of a Bucket a cached read was taken at. A Bucket keeps three kinds of generation
 * (bucket-generation.ts): `generation`, bumped by every write but Object version writes;
 * `object_generation`, bumped by every Object version write; and one per Object type, bumped by
 * the version writes of that type. A read that may show any Object keys on the first two; a read
 * that shows Objects of known types only keys on `generation` and those types' own, so a write
 * of another type leaves it (its response, kept order and total) in place.
 */

/** A type slug as a field name: no dots (paths) and no leading `$` (operators). */
export function typeGenerationField(slug: string): string {
  return encodeURIComponent(slug).replace(/\./g, '%2E');
}

/** The generation of a read of `types` only, or of any Object (null). */
export function readGeneration(bucket: BucketDoc, types: readonly string[] | null = null): string {
  if (types === null) return `${String(bucket.generation)}.${String(bucket.object_generation ?? 0)}`;
  const own = bucket.type_generations ?? {};
  const parts = [...new Set(types)].sort().map((t) => `${t}=${String(own[typeGenerationField(t)] ?? 0)}`);
  return `${String(bucket.generation)}:${parts.join(',')}`;
}
