import assert from 'node:assert/strict';
import { noMatch, notFound, routeNotFound } from '../../lib/errors/not-found.js';

describe('not-found factories', () => {
  it('word every resource one way, with its own code', () => {
    const cases = [
      [notFound('bucket', 'shop'), "Bucket with slug 'shop' not found", 'bucket_not_found'],
      [notFound('object', 'abc', 'shop'), "Object with id 'abc' not found in bucket 'shop'", 'object_not_found'],
      [
        notFound('object_type', 'posts', 'shop'),
        "Object type with slug 'posts' not found in bucket 'shop'",
        'object_type_not_found',
      ],
      [
        notFound('revision', 'r1', 'shop', 'o1'),
        "Revision with id 'r1' not found for object 'o1' in bucket 'shop'",
        'revision_not_found',
      ],
      [notFound('media', 'm1', 'shop'), "Media with id 'm1' not found in bucket 'shop'", 'media_not_found'],
      [
        notFound('media_file', 'a.png', 'shop'),
        "Media with name 'a.png' not found in bucket 'shop'",
        'media_not_found',
      ],
      [noMatch('objects', 'shop'), "No objects found in bucket 'shop' for this query", 'no_match'],
      [routeNotFound('GET', '/nope'), 'No route for GET /nope', 'route_not_found'],
    ] as const;
    for (const [err, message, code] of cases) {
      assert.equal(err.status, 404);
      assert.equal(err.message, message);
      assert.equal(err.code, code);
    }
  });
});
