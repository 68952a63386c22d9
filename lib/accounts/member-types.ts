import type { Db } from 'mongodb';
import { objectTypesCollection, type BucketDoc } from '../db/collections.js';
import { BadRequestError } from '../errors/http-errors.js';
import { readOptions } from '../db/service-db.js';
import { quote } from '../util/quote.js';
import { contributorTypesProblem, type MemberSettings } from './user-input.js';

/**
 * A contributor may edit only the Object types it names, so a name the Bucket has no type for
 * would grant nothing (or, once such a type is made, grant it unasked): 400 naming each one.
 */
export async function assertContributorTypes(
  db: Db,
  bucket: BucketDoc,
  settings: Pick<MemberSettings, 'role' | 'object_types'>,
): Promise<void> {
  const required = contributorTypesProblem(settings);
  if (required !== null) throw new BadRequestError(`Invalid body: ${required}`, 'invalid_body', [required]);
  if (settings.role !== 'contributor') return;
  const found = await objectTypesCollection(db)
    .find(
      { bucket_id: bucket._id, slug: { $in: settings.object_types } },
      { ...readOptions(db), projection: { slug: 1 } },
    )
    .toArray();
  const known = new Set(found.map((t) => t.slug));
  const unknown = settings.object_types.filter((slug) => !known.has(slug));
  if (unknown.length === 0) return;
  const problem = `object_types names no Object type of bucket ${quote(bucket.slug)}: ${unknown.map(quote).join(', ')}`;
  throw new BadRequestError(`Invalid body: ${problem}`, 'invalid_body', [problem]);
}
