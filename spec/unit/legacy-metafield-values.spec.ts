import assert from 'node:assert/strict';
import { metadataOfMetafields } from '../../lib/api/legacy/shared/metafield-values.js';

describe('metadataOfMetafields (the legacy metafields write form)', () => {
  it('takes each key and value, ignoring what belongs to the Object type', () => {
    assert.deepEqual(
      metadataOfMetafields(
        [
          { key: 'headline', type: 'text', title: 'Headline', value: 'Hi' },
          { key: 'count', type: 'number', value: 0 },
          { key: 'empty', value: null },
        ],
        'body.metafields',
      ),
      { headline: 'Hi', count: 0, empty: null },
    );
    assert.deepEqual(metadataOfMetafields([], 'body.metafields'), {});
  });

  it("builds a parent's value from its children and a repeater's from its items", () => {
    assert.deepEqual(
      metadataOfMetafields(
        [
          {
            key: 'seo',
            type: 'parent',
            children: [
              { key: 'title', value: 'T' },
              { key: 'description', value: 'D' },
            ],
          },
          {
            key: 'faq',
            type: 'repeater',
            children: [{ children: [{ key: 'q', value: 'Why?' }] }, { children: [{ key: 'q', value: 'How?' }] }],
          },
        ],
        'body.metafields',
      ),
      { seo: { title: 'T', description: 'D' }, faq: [{ q: 'Why?' }, { q: 'How?' }] },
    );
  });

  it('reports every problem at once, each with its path', () => {
    assert.throws(
      () =>
        metadataOfMetafields(
          [
            { key: 'a', value: 1 },
            { key: 'a', value: 2 },
            { title: 'no key', value: 3 },
            { key: 'b' },
            { key: 'p', type: 'parent', children: [{ key: 'c' }] },
            { key: 'r', type: 'repeater', children: ['x'] },
          ],
          'body.metafields',
        ),
      (err: Error & { code?: string }) => {
        assert.equal(err.code, 'invalid_body');
        for (const problem of [
          `body.metafields[1]: key "a" is given twice`,
          'body.metafields[2] must be an object with a non-empty string key',
          'body.metafields[3] must have a value',
          'body.metafields[4].children[0] must have a value',
          'body.metafields[5].children[0].children must be an array',
        ]) {
          assert.ok(err.message.includes(problem), `${problem} in ${err.message}`);
        }
        return true;
      },
    );
    assert.throws(() => metadataOfMetafields({ a: 1 }, 'body.metafields'), /body\.metafields must be an array/);
  });
});
