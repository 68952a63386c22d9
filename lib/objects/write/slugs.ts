import type { Collection, Filter } from 'mongodb';
import { SlugTakenError } from '../../errors/domain-errors.js';
import { isDuplicateKey } from '../../errors/mongo-errors.js';
import type { ReadOptions } from '../../db/service-db.js';
import { escapeRegex } from '../../util/escape-regex.js';

/** "Crème Brûlée & Co." → "creme-brulee-co": lowercase ASCII, hyphenated. */
export function slugify(title: string, fallback = 'untitled'): string {
  const folded = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[æÆ]/g, 'ae')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return folded || fallback;
}

const MAX_ATTEMPTS = 60;

/**
 * Inserts under a unique index. An explicit slug that is taken is the caller's error;
 * a derived one gets the next free "-N" suffix. The unique index, not a prior read, is what
 * guarantees distinct slugs when many writers race for the same title.
 */
export async function insertWithUniqueSlug<T>(opts: {
  base: string;
  explicit: boolean;
  what: string;
  takenSlugs: (pattern: { $regex: string }) => Promise<string[]>;
  insert: (slug: string) => Promise<T>;
}): Promise<T> {
  let candidate = opts.base;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    try {
      return await opts.insert(candidate);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      if (opts.explicit) throw new SlugTakenError(`${opts.what} with slug '${opts.base}' already exists`);
      candidate = await nextFreeSlug(opts.base, opts.takenSlugs, attempt);
    }
  }
  throw new SlugTakenError(`Could not find a free slug for '${opts.base}'; send an explicit slug`);
}

async function nextFreeSlug(
  base: string,
  takenSlugs: (p: { $regex: string }) => Promise<string[]>,
  attempt: number,
): Promise<string> {
  // $regex as a string, not a BSON regex: mongo-java-server cannot use a BSON regex against an index.
  const taken = await takenSlugs({ $regex: `^${escapeRegex(base)}(-\\d+)?$` });
  let max = 1;
  for (const s of taken) {
    const m = /-(\d+)$/.exec(s.slice(base.length));
    if (m) max = Math.max(max, Number(m[1]));
  }
  // Racing writers read the same maximum; spreading by attempt keeps them from colliding forever.
  return `${base}-${max + 1 + Math.floor(Math.random() * (attempt + 1))}`;
}

/**
 * Slugs of the documents matching a filter. A projected find rather than `distinct`: it
 * streams instead of building one 16 MB reply, and every wire-protocol engine serves it.
 */
export async function slugsWhere<T extends { slug: string }>(
  coll: Collection<T>,
  filter: Filter<T>,
  options: ReadOptions,
): Promise<string[]> {
  const docs = await coll.find(filter, { projection: { _id: 0, slug: 1 }, ...options }).toArray();
  return docs.map((d) => d.slug);
}
