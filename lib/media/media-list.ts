import type { Db, Document } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { mediaCollection } from '../store/media.js';
import type { ParamValues } from '../query/read-params.js';
import { compileFilter } from '../query/translate-filter.js';
import type { FieldInfo, FilterContext } from '../query/filter-types.js';
import type { ReadMedia } from '../render/media.js';
import { afterCursorFilter } from '../query/list-cursor.js';
import { mediaListQuery, mediaListSort, mediaRandomPageStages, type MediaSorts } from './media-list-query.js';
import { readOptions } from '../db/service-db.js';
import { ByteBudget, readWithin } from '../query/read-budget.js';

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

export const MEDIA_FILTER_CONTEXT: FilterContext = { fields: MEDIA_FIELDS };

/** The media list parameters, already read (see query/read-params.ts). */
export type MediaListQuery = Pick<ParamValues, 'query' | 'sort' | 'props' | 'limit' | 'skip' | 'after'> &
  Partial<Pick<ParamValues, 'folder'>>;

/**
 * User metadata is the one part of a record that can be large; a list whose props do not ask
 * for it does not read it, so narrowing props keeps such a list under the response cap.
 */
function projectionFor(props: readonly string[] | null): Document | null {
  if (props === null || props.some((p) => p === 'metadata' || p.startsWith('metadata.'))) return null;
  return { metadata: 0 };
}

/**
 * One page of a Bucket's media and the count of all matches, run concurrently. `after` continues
 * from an item exactly as on Objects (list-cursor.ts); `total` still counts every match. The page is read
 * within the response cap, batch by batch, and the read stops as soon as the cap is crossed;
 * `props` narrows the rendered items. `sorts`: the v3 sort values, or the legacy ones (v1/v2).
 */
export async function listMedia(
  db: Db,
  bucket: BucketDoc,
  q: MediaListQuery,
  maxBytes: number,
  sorts: MediaSorts = 'media',
): Promise<{ docs: ReadMedia[]; total: number }> {
  const filtered = compileFilter(q.query, MEDIA_FILTER_CONTEXT);
  // `folder=` is the plain-parameter form of `query={"folder": …}`, and narrows any query given.
  const inFolder = q.folder === undefined ? null : { folder: q.folder };
  const translated =
    inFolder && Object.keys(filtered).length > 0 ? { $and: [filtered, inFolder] } : (inFolder ?? filtered);
  const sort = mediaListSort(q.sort, sorts);
  const media = mediaCollection(db);
  const options = readOptions(db);
  const keyset = await afterCursorFilter(
    { coll: media, readOptions: options, what: 'media item' },
    bucket,
    sort,
    q.after,
  );
  const find = mediaListQuery({ bucketId: bucket._id, translated, sort, keyset, skip: q.skip, limit: q.limit });
  const projection = projectionFor(q.props);
  const cursor = find.sort.random
    ? media.aggregate<ReadMedia>(mediaRandomPageStages(find, projection), options)
    : media
        .find<ReadMedia>(find.pageFilter, projection ? { projection, ...options } : options)
        .sort(find.sort.fields)
        .skip(find.skip)
        .limit(find.limit);
  const page = readWithin(cursor, new ByteBudget(maxBytes));
  const [docs, total] = await Promise.all([page, media.countDocuments(find.filter, options)]);
  return { docs, total };
}
