import assert from 'node:assert/strict';
import { regexOn, withoutRegex } from '../../lib/query/regex-scan.js';

describe('regexOn and withoutRegex: what a $regex makes the engine read', () => {
  it('finds a regex on a path at the top, in $or, $and, $nor and under $not', () => {
    assert.equal(regexOn({ content: { $regex: 'a' } }, 'content'), true);
    assert.equal(regexOn({ $or: [{ title: 'x' }, { content: { $regex: 'a' } }] }, 'content'), true);
    assert.equal(regexOn({ $and: [{ content: { $not: { $regex: 'a' } } }] }, 'content'), true);
    assert.equal(regexOn({ $nor: [{ content: { $regex: 'a' } }] }, 'content'), true);
    assert.equal(regexOn({ title: { $regex: 'a' }, content: 'plain' }, 'content'), false);
  });

  it('leaves out whole conditions holding a regex, so what remains matches a superset', () => {
    assert.deepEqual(withoutRegex({ bucket_id: 1, type: 'posts', content: { $regex: 'a' } }), {
      bucket_id: 1,
      type: 'posts',
    });
    assert.deepEqual(withoutRegex({ bucket_id: 1, $or: [{ content: { $regex: 'a' } }, { title: 'x' }] }), {
      bucket_id: 1,
    });
    assert.deepEqual(withoutRegex({ $and: [{ type: 'posts' }, { content: { $not: { $regex: 'a' } } }] }), {
      $and: [{ type: 'posts' }],
    });
    const at = new Date(0);
    assert.deepEqual(withoutRegex({ created_at: { $gt: at } }), { created_at: { $gt: at } });
  });
});
