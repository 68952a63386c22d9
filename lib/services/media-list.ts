import type { Db, Document, Filter } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { mediaCollection, type MediaDoc } from '../db/media-collection.js';
import type { ParamValues } from '../query/read-params.js';
import { parseSort } from '../query/sort.js';
import { compileFilter } from '../query/translate-filter.js';
import type { FieldInfo, FilterContext } from '../query/validate-filter.js';
import { readOptions } from './query-time-limit.js';

const text = (storagePath: string): FieldInfo => ({ storagePath, valueType: 'text' });
const date = (storagePath: string): FieldInfo => ({ storagePath, valueType: 'date' });
const num = (storagePath: string): FieldInfo => ({ storagePath, valueType: 'number' });

/** Queryable media keys (API name → stored field); `metadata.<key>` reaches the user metadata. */
const MEDIA_FIELDS: ReadonlyMap<string, FieldInfo> = new Map<string, FieldInfo>([
  ['id', { storagePath: '_id', valueType: 'id' }],
  ['name', text('name')],
  ['original_name', text('original_name')],
  ['type', text('type')],
  ['folder', text('folder')],
  ['alt_text', text('alt_text')],
  ['size', num('size')],
  ['width', num('width')],
  ['height', num('height')],
  ['created', date('created_at')],
  ['created_at', date('created_at')],
  ['modified_at', date('modified_at')],
]);

export const MEDIA_FILTER_CONTEXT: FilterContext = { relationshipPaths: new Set(), fields: MEDIA_FIELDS };

/** The media list parameters, already read (see query/read-params.ts). */
export type MediaListQuery = Pick<ParamValues, 'query' | 'sort' | 'limit' | 'skip'>;

/**
 * One page of a Bucket's media and the count of all matches, run concurrently. Whole records
 * are read (they are small); `props` narrows the rendered items.
 */
export async function listMedia(
  db: Db,
  bucket: BucketDoc,
  q: MediaListQuery,
): Promise<{ docs: MediaDoc[]; total: number }> {
  const translated = compileFilter(q.query, MEDIA_FILTER_CONTEXT) as Filter<MediaDoc>;
  const sort = parseSort(q.sort, { sortableKeys: new Set(), allowed: 'media' });
  const base: Filter<MediaDoc> = { bucket_id: bucket._id };
  const match: Filter<MediaDoc> = Object.keys(translated).length > 0 ? { $and: [base, translated] } : base;
  const media = mediaCollection(db);
  const options = readOptions(db);
  const page = sort.random
    ? media.aggregate<MediaDoc>([{ $match: match }, { $sample: { size: q.limit } }] as Document[], options).toArray()
    : media.find(match, options).sort(sort.fields).skip(q.skip).limit(q.limit).toArray();
  const [docs, total] = await Promise.all([page, media.countDocuments(match, options)]);
  return { docs, total };
}
