import assert from 'node:assert/strict';
import { ObjectId, type Document } from 'mongodb';
import type { ObjectTypeDoc } from '../../lib/db/collections.js';
import { OBJECT_LIST_INDEXES, sortableIndex, type IndexSpec } from '../../lib/db/indexes.js';
import { BadRequestError } from '../../lib/errors/http-errors.js';
import { relatedFilter } from '../../lib/objects/populate/related.js';
import { writtenMatchFilter } from '../../lib/objects/list/object-list-query.js';
import { keysetFilter } from '../../lib/query/cursor.js';
import { metadataPaths } from '../../lib/metafields/metadata-paths.js';
import type { StatusFilter } from '../../lib/query/read-params.js';
import { OBJECT_SORT_FIELDS } from '../../lib/db/indexes.js';
import { compileFilter } from '../../lib/query/translate-filter.js';
import { objectListQuery, objectListSort, randomPageStages } from '../../lib/objects/list/object-list-query.js';
import { statusMatch } from '../../lib/objects/object-views.js';
import { newObjectTypeDoc } from '../../lib/object-types/object-types.js';
import { isPoint, serves, type SortFields } from '../support/index-contract.js';

/*
 * The index contract for Object lists (see spec/support/index-contract.ts): what the builders
 * build against what lib/db/indexes.ts declares, for every status, sort, cursor and a spread of
 * queries.
 */

const bucketId = new ObjectId();
const at = new Date('2026-01-01T00:00:00Z');
function typeDoc(slug: string, metafields: ObjectTypeDoc['metafields']): ObjectTypeDoc {
  return newObjectTypeDoc(bucketId, { title: slug, metafields }, slug, 0, at);
}
const types = new Map([
  [
    'posts',
    typeDoc('posts', [
      { type: 'number', title: 'Score', key: 'score', value: '', sortable: true },
      { type: 'text', title: 'Genre', key: 'genre', value: '' },
    ] as ObjectTypeDoc['metafields']),
  ],
  ['authors', typeDoc('authors', [])],
]);
const indexes: IndexSpec[] = [...OBJECT_LIST_INDEXES, sortableIndex('score')];

const QUERIES: Array<object | undefined> = [
  undefined,
  { type: 'posts' },
  { type: { $eq: 'posts' } },
  { type: 'posts', 'metadata.genre': 'g3' },
  { type: 'posts', 'metadata.score': { $gte: 10 }, title: { $regex: '^P', $options: 'i' } },
  { type: { $in: ['posts', 'authors'] } },
  { type: { $ne: 'posts' } },
  { $or: [{ type: 'posts' }, { type: 'authors' }] },
  { title: { $regex: 'x' } },
  { id: new ObjectId().toHexString() },
];
const SORTS = [undefined, 'random', 'metadata.score', '-metadata.score'].concat(
  OBJECT_SORT_FIELDS.flatMap((f) => [f, `-${f}`]),
);
const STATUSES: StatusFilter[] = ['published', 'draft', 'any'];
/** A contributor's list is narrowed to its Object types (lib/accounts/type-scope.ts); others are not. */
const TYPE_SCOPES: Array<readonly string[] | null> = [null, ['posts'], ['posts', 'authors']];
/** The last item of a previous page: with values, and without (the null bracket of the keyset). */
const LAST_ITEMS: Array<Record<string, unknown> | null> = [
  null,
  { _id: new ObjectId(), order: 3, created_at: at, modified_at: at, metadata: { score: 7 } },
  { _id: new ObjectId(), metadata: {} },
];

describe('index contract: Object list queries against the declared indexes', () => {
  it('the check refuses what an index cannot serve', () => {
    const index = OBJECT_LIST_INDEXES[0]!;
    const sort: SortFields = [
      ['order', -1],
      ['_id', -1],
    ];
    assert.equal(serves(index, { bucket_id: bucketId, type: 't', status: 'draft' }, sort), true);
    assert.equal(serves(index, { bucket_id: bucketId, type: 't' }, sort), false, 'status not pinned');
    assert.equal(
      serves(index, { $and: [{ bucket_id: bucketId }, { type: { $regex: 't' }, status: 'x' }] }, sort),
      false,
    );
    const mixed: SortFields = [
      ['order', -1],
      ['_id', 1],
    ];
    assert.equal(serves(index, { bucket_id: bucketId, type: 't', status: 'x' }, mixed), false, 'directions mixed');
    assert.equal(serves(index, { type: 't', status: 'x' }, null), false, 'no bucket_id');
  });

  let checked = 0;
  for (const status of STATUSES) {
    it(`serves every list with status=${status} from an index leading with bucket_id, in sort order`, () => {
      for (const query of QUERIES) {
        const translated = compileFilter(query && JSON.stringify(query), {
          metadataPaths: metadataPaths(types.values()),
        });
        for (const raw of SORTS) {
          let sort;
          try {
            sort = objectListSort(raw, translated, types);
          } catch (err) {
            // Sorting by metadata needs the type pinned: a 400, not a query.
            assert.ok(err instanceof BadRequestError && raw?.includes('metadata'), String(err));
            continue;
          }
          for (const [last, typeScope] of (sort.random ? [null] : LAST_ITEMS).flatMap((l) =>
            TYPE_SCOPES.map((t) => [l, t] as const),
          )) {
            const keyset = last && !sort.random ? keysetFilter(sort.fields, last) : null;
            const q = objectListQuery({
              bucketId,
              viewMatch: statusMatch(status),
              translated,
              sort,
              keyset,
              skip: 0,
              limit: 10,
              typeScope,
            });
            const what = `${JSON.stringify(query)} sort=${raw} after=${last ? 'yes' : 'no'} scope=${String(typeScope)}`;
            assert.ok(
              indexes.some((i) => serves(i, q.filter, null)),
              `the count of ${what}`,
            );
            const page = sort.random ? (randomPageStages(q)[0]!.$match as Document) : q.pageFilter;
            const order = sort.random ? null : sort.fields;
            assert.ok(
              indexes.some((i) => serves(i, page, order)),
              `the page of ${what}: ${JSON.stringify(page)}`,
            );
            checked++;
          }
        }
      }
    });
  }

  it('checked a real spread of lists', () => {
    assert.ok(checked > 300, `only ${checked} lists checked`);
  });

  it('a type scope pins type to the scope beside any type the query names', () => {
    const translated = compileFilter(JSON.stringify({ type: { $ne: 'posts' } }), {
      metadataPaths: metadataPaths(types.values()),
    });
    const q = objectListQuery({
      bucketId,
      viewMatch: statusMatch('published'),
      translated,
      sort: objectListSort(undefined, translated, types),
      keyset: null,
      skip: 0,
      limit: 10,
      typeScope: ['authors'],
    });
    assert.deepEqual(q.filter, {
      $and: [{ bucket_id: bucketId, status: 'published', type: { $ne: 'posts' } }, { type: { $in: ['authors'] } }],
    });
  });

  it('reads related Objects through the _id index, naming their Bucket', () => {
    const bucketId = new ObjectId();
    const filter = relatedFilter(bucketId, [new ObjectId()]);
    assert.deepEqual(Object.keys(filter), ['_id', 'bucket_id']);
    assert.ok(isPoint(filter._id));
    assert.equal(filter.bucket_id, bucketId);
  });

  it('reads written Objects again through the _id index, naming their Bucket, with the list filter beside', () => {
    const bucketId = new ObjectId();
    const listFilter = { 'metadata.genre': 'x', bucket_id: bucketId, status: 'published' };
    const filter = writtenMatchFilter(bucketId, [new ObjectId(), new ObjectId()], listFilter);
    assert.deepEqual(Object.keys(filter), ['_id', 'bucket_id', '$and']);
    assert.ok(isPoint(filter._id));
    assert.equal(filter.bucket_id, bucketId);
    assert.deepEqual(filter.$and, [listFilter]);
  });
});
