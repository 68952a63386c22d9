import { objectDocFixture } from '../support/object-doc.js';
import assert from 'node:assert/strict';
import { ObjectId, type Document } from 'mongodb';
import type { ObjectDoc } from '../../lib/db/collections.js';
import { nextLevelStages, pageWithRelatedPipeline, splitFacet } from '../../lib/populate/pipeline.js';

const head = [{ $match: { type: 'posts' } }, { $sort: { order: -1, _id: -1 } }, { $skip: 0 }, { $limit: 10 }];
const match = { bucket_id: new ObjectId(), status: 'draft' };

describe('relationship pipeline builder (pure)', () => {
  it('keeps the page selection first, so the sort can use an index', () => {
    const p = pageWithRelatedPipeline(head, {
      collection: 'objects',
      match,
      depth: 1,
      projection: null,
      maxPerLevel: 1001,
    });
    assert.deepEqual(p.slice(0, 4), head);
    assert.equal(p.length, 5);
  });

  for (const depth of [0, 1, 2, 3]) {
    it(`has one facet branch per level at depth ${depth}, each level reusing the one before`, () => {
      const p = pageWithRelatedPipeline(head, {
        collection: 'objects',
        match,
        depth,
        projection: null,
        maxPerLevel: 1001,
      });
      const stage = p[4];
      assert.ok(stage, 'a stage after the page selection');
      const facet = stage.$facet as Record<string, unknown[]>;
      assert.deepEqual(Object.keys(facet), ['page', ...Array.from({ length: depth }, (_, i) => `level${i + 1}`)]);
      for (let level = 1; level <= depth; level++) {
        assert.equal(facet[`level${level}`]?.length, level * nextLevelStages('objects', match, 1001).length);
      }
    });
  }

  it('projects props in the page branch only, so levels still see refs', () => {
    const p = pageWithRelatedPipeline(head, {
      collection: 'objects',
      match,
      depth: 1,
      projection: { title: 1 },
      maxPerLevel: 1001,
    });
    const stage = p[4];
    assert.ok(stage, 'a stage after the page selection');
    const facet = stage.$facet as Record<string, Array<Record<string, unknown>>>;
    assert.deepEqual(facet.page, [{ $project: { title: 1 } }]);
    assert.deepEqual(facet.level1?.[0], { $project: { refs: 1 } });
  });

  it('looks related Objects up by _id in the same collection and filters them by the view', () => {
    const stages = nextLevelStages('published_objects', match, 1001);
    const lookup = stages.find((s) => '$lookup' in s)!.$lookup as Record<string, string>;
    assert.deepEqual(lookup, { from: 'published_objects', localField: '_id', foreignField: '_id', as: 'found' });
    assert.deepEqual(stages.slice(-2), [{ $match: match }, { $limit: 1001 }]);
  });

  it('bounds every level, so the next level starts from at most maxPerLevel Objects', () => {
    const p = pageWithRelatedPipeline(head, {
      collection: 'objects',
      match,
      depth: 3,
      projection: null,
      maxPerLevel: 7,
    });
    const facet = p[4]?.$facet as Record<string, Document[]>;
    const level3 = facet.level3 ?? [];
    const limits = level3.filter((s) => '$limit' in s).map((s) => s.$limit as number);
    assert.deepEqual(limits, [7, 7, 7]);
    // Each bound follows its level's visibility match, so it counts only Objects that would be loaded.
    for (const [i, stage] of level3.entries()) if ('$limit' in stage) assert.ok('$match' in (level3[i - 1] ?? {}));
  });

  it('splits a facet answer into the page and a map of every related Object', () => {
    const doc = (title: string): ObjectDoc => objectDocFixture(title);
    const [p, a, b] = [doc('P'), doc('A'), doc('B')];
    const { page, related } = splitFacet({ page: [p], level1: [a], level2: [a, b] });
    assert.deepEqual(page, [p]);
    assert.deepEqual([...related.keys()].sort(), [a._id.toHexString(), b._id.toHexString()].sort());
    assert.deepEqual(splitFacet(undefined).page, []);
  });
});

describe('isDocumentTooLarge', () => {
  it('recognises MongoDB’s over-16 MB errors and nothing else', async () => {
    const { MongoServerError } = await import('mongodb');
    const { isDocumentTooLarge } = await import('../../lib/populate/fetch-page.js');
    assert.equal(
      isDocumentTooLarge(new MongoServerError({ message: 'too big', code: 10334, codeName: 'BSONObjectTooLarge' })),
      true,
    );
    assert.equal(isDocumentTooLarge(new MongoServerError({ message: 'facet too big', code: 4031700 })), true);
    assert.equal(isDocumentTooLarge(new MongoServerError({ message: 'other', code: 2 })), false);
    assert.equal(isDocumentTooLarge(new Error('x')), false);
  });
});
