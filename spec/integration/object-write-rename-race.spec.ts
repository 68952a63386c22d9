import assert from 'node:assert/strict';
import { bucketsCollection, objectsCollection } from '../../lib/db/collections.js';
import { HttpError } from '../../lib/errors/http-errors.js';
import { updateObject } from '../../lib/objects/write/object-writes.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { interceptWrites } from '../support/intercept-writes.js';

describe('an Object write racing a rename of its type', () => {
  const suite = new BucketSuite('race');

  it('answers 409 and leaves the Object under the new slug, instead of writing the old one back', async () => {
    const { api } = suite;
    await api.post('/object-types', { title: 'Authors' }).expect(200);
    const id = String((await api.post('/objects', { title: 'Ann', type: 'authors' }).expect(200)).body.object.id);
    await suite.harness.settled();
    const bucket = await bucketsCollection(suite.harness.db).findOne({ slug: 'race' });
    assert.ok(bucket);
    let renamed = false;
    // The rename lands after this PATCH read the Object and its type, just before it writes.
    const db = interceptWrites(suite.harness.db, async ({ collection, method }) => {
      // The edit's commit: the first write to `objects` (an update over the version it read).
      if (collection === 'objects' && method === 'updateOne' && !renamed) {
        renamed = true;
        await api.patch('/object-types/authors', { slug: 'writers' }).expect(200);
      }
    });
    const attempt = updateObject({ ...suite.harness.writes, db, validators: new MetadataValidators() }, bucket, id, {
      title: 'Ann B.',
    });
    await assert.rejects(attempt, (err: unknown) => err instanceof HttpError && err.status === 409);
    const stored = await objectsCollection(suite.harness.db).findOne({ title: 'Ann' });
    assert.equal(stored?.type, 'writers');
    // The same PATCH, retried, goes through under the new slug.
    const retried = await api.patch(`/objects/${id}`, { title: 'Ann B.' }).expect(200);
    assert.equal(retried.body.object.type, 'writers');
  });
});
