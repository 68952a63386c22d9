import assert from 'node:assert/strict';
import { ObjectId, type Document } from 'mongodb';
import { REVISION_LIST_INDEX, type IndexSpec } from '../../lib/db/indexes.js';
import { MEDIA_LIST_INDEXES } from '../../lib/store/media.js';
import { BadRequestError } from '../../lib/errors/http-errors.js';
import { keysetFilter } from '../../lib/query/cursor.js';
import { parseSort, type SortSpec } from '../../lib/query/sort.js';
import { compileFilter } from '../../lib/query/translate-filter.js';
import { MEDIA_FILTER_CONTEXT } from '../../lib/media/media-list.js';
import {
  mediaListQuery,
  mediaListSort,
  mediaRandomPageStages,
  type MediaSorts,
} from '../../lib/media/media-list-query.js';
import { revisionListQuery } from '../../lib/objects/revisions.js';
import { serves, type SortFields } from '../support/index-contract.js';

/*
 * The index contract for media and revision lists (see spec/support/index-contract.ts): the media
 * list builder against MEDIA_LIST_INDEXES for every sort value the v3 and the legacy routes take,
 * with and without `after`, over a spread of queries; the revisions list against its index.
 */

const bucketId = new ObjectId();
const at = new Date('2026-01-01T00:00:00Z');
const TARGETS: MediaSorts[] = ['media', 'legacy-media'];

/**
 * Every value `sorts` takes, read from parseSort's own refusal (which lists them), so a sort value
 * added later is checked here without this file knowing of it.
 */
function allowedSorts(sorts: MediaSorts): Array<string | undefined> {
  let message = '';
  try {
    mediaListSort('not-a-sort', sorts);
  } catch (err) {
    assert.ok(err instanceof BadRequestError);
    message = err.message;
  }
  const listed = /allowed values for media are (.+)$/.exec(message)?.[1];
  assert.ok(listed, `parseSort lists the allowed values: ${message}`);
  return [undefined, ...listed.split(', ')];
}

const QUERIES: Array<object | undefined> = [
  undefined,
  { name: 'a-cat.png' },
  { id: new ObjectId().toHexString() },
  { folder: 'animals', type: 'image/png' },
  { size: { $gte: 10 } },
  { 'metadata.rank': 2 },
  { created_at: { $gt: at.toISOString() } },
  { modified_at: { $lt: at.toISOString() }, alt_text: { $ne: '' } },
  { $or: [{ folder: 'animals' }, { folder: 'docs' }] },
  { original_name: { $regex: '^a', $options: 'i' } },
];
/** The last item of a previous page: with values, and without (the null bracket of the keyset). */
const LAST_ITEMS: Array<Record<string, unknown> | null> = [
  null,
  { _id: new ObjectId(), created_at: at, modified_at: at, size: 120 },
  { _id: new ObjectId() },
];

/** The media lists of one sort value: [what, count filter, page filter, page order] for each query and cursor. */
function mediaLists(
  sorts: MediaSorts,
  raw: string | undefined,
): Array<[string, Document, Document, SortFields | null]> {
  const sort = mediaListSort(raw, sorts);
  return QUERIES.flatMap((query) => {
    const translated = compileFilter(query && JSON.stringify(query), MEDIA_FILTER_CONTEXT);
    return (sort.random ? [null] : LAST_ITEMS).map((last): [string, Document, Document, SortFields | null] => {
      const keyset = last && !sort.random ? keysetFilter(sort.fields, last) : null;
      const q = mediaListQuery({ bucketId, translated, sort, keyset, skip: 0, limit: 10 });
      const page = sort.random ? (mediaRandomPageStages(q, { metadata: 0 })[0]!.$match as Document) : q.pageFilter;
      const what = `${sorts} ${JSON.stringify(query)} sort=${String(raw)} after=${last ? 'yes' : 'no'}`;
      return [what, q.filter, page, sort.random ? null : sort.fields];
    });
  });
}

const servedBy = (indexes: readonly IndexSpec[], filter: Document, order: SortFields | null) =>
  indexes.some((i) => serves(i, filter, order));

describe('index contract: media and revision list queries against the declared indexes', () => {
  let checked = 0;
  for (const sorts of TARGETS) {
    it(`serves every ${sorts} list from an index leading with bucket_id, in sort order`, () => {
      const values = allowedSorts(sorts);
      assert.ok(values.includes('random') && values.includes('-modified_at'), values.join());
      for (const raw of values) {
        for (const [what, filter, page, order] of mediaLists(sorts, raw)) {
          assert.ok(servedBy(MEDIA_LIST_INDEXES, filter, null), `the count of ${what}`);
          assert.ok(servedBy(MEDIA_LIST_INDEXES, page, order), `the page of ${what}: ${JSON.stringify(page)}`);
          checked++;
        }
      }
    });
  }

  it('checked a real spread of lists, the legacy sorts among them', () => {
    assert.ok(allowedSorts('legacy-media').includes('-size'));
    assert.ok(allowedSorts('legacy-media').includes('created'));
    assert.ok(checked > 300, `only ${checked} lists checked`);
  });

  it('would refuse the single index media had before: it serves no sort, only the count', () => {
    const old: IndexSpec = { key: { bucket_id: 1, created_at: -1 }, name: 'bucket_created' };
    for (const sorts of TARGETS) {
      for (const raw of allowedSorts(sorts).filter((v) => v !== 'random')) {
        for (const [what, filter, page, order] of mediaLists(sorts, raw)) {
          assert.equal(serves(old, filter, null), true, `the count of ${what}`);
          assert.equal(serves(old, page, order), false, `the page of ${what}`);
        }
      }
    }
  });

  it('needs every declared media index: without any one, some sort goes unserved', () => {
    const lists = TARGETS.flatMap((sorts) => allowedSorts(sorts).flatMap((raw) => mediaLists(sorts, raw)));
    for (const dropped of MEDIA_LIST_INDEXES) {
      const rest = MEDIA_LIST_INDEXES.filter((i) => i !== dropped);
      const unserved = lists.filter(([, , page, order]) => !servedBy(rest, page, order));
      assert.ok(unserved.length > 0, `${dropped.name} serves no list of its own`);
    }
  });

  it('keeps `bucket_id` pinned beside the query and the cursor, and counts without the cursor', () => {
    const sort = mediaListSort('-modified_at', 'media') as Extract<SortSpec, { random: false }>;
    const keyset = keysetFilter(sort.fields, { _id: bucketId, modified_at: at });
    const translated = { folder: 'animals' };
    const q = mediaListQuery({ bucketId, translated, sort, keyset, skip: 5, limit: 3 });
    assert.deepEqual(q.filter, { $and: [{ bucket_id: bucketId }, translated] });
    assert.deepEqual(q.pageFilter, { $and: [q.filter, keyset] });
    assert.deepEqual([q.skip, q.limit], [5, 3]);
    const bare = mediaListQuery({ bucketId, translated: {}, sort, keyset: null, skip: 0, limit: 3 });
    assert.deepEqual(bare.filter, { bucket_id: bucketId });
    assert.equal(bare.pageFilter, bare.filter);
  });

  it('samples a random media page from the filter, then projects', () => {
    const q = mediaListQuery({ bucketId, translated: {}, sort: { random: true }, keyset: null, skip: 0, limit: 4 });
    assert.deepEqual(mediaRandomPageStages(q, { metadata: 0 }), [
      { $match: { bucket_id: bucketId } },
      { $sample: { size: 4 } },
      { $project: { metadata: 0 } },
    ]);
    assert.equal(mediaRandomPageStages(q, null).length, 2);
  });

  it('serves every revisions list from the object_history index, both directions', () => {
    const objectId = new ObjectId();
    const directions = ['created_at', '-created_at', undefined].map((raw) => {
      const sort = parseSort(raw, { sortableKeys: new Set(), allowed: 'revisions' });
      assert.equal(sort.random, false);
      return sort.fields[0][1];
    });
    assert.deepEqual(directions, [1, -1, -1]);
    for (const direction of directions) {
      const q = revisionListQuery(bucketId, objectId, direction);
      assert.ok(serves(REVISION_LIST_INDEX, q.filter, null), 'the count');
      assert.ok(serves(REVISION_LIST_INDEX, q.filter, q.sort), `the page, direction ${direction}`);
    }
  });

  it('would refuse a revisions index or filter that does not serve the list', () => {
    const objectId = new ObjectId();
    const q = revisionListQuery(bucketId, objectId, -1);
    const noTieBreak: IndexSpec = { key: { bucket_id: 1, object_id: 1, created_at: -1 }, name: 'x' };
    assert.equal(serves(noTieBreak, q.filter, q.sort), false, 'no _id after created_at');
    assert.equal(serves(REVISION_LIST_INDEX, { bucket_id: bucketId }, q.sort), false, 'object_id not pinned');
    const mixed: SortFields = [
      ['created_at', -1],
      ['_id', 1],
    ];
    assert.equal(serves(REVISION_LIST_INDEX, q.filter, mixed), false, 'directions mixed');
  });
});
