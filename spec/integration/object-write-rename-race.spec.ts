import assert from 'node:assert/strict';
import { bucketsCollection, objectsCollection } from '../../lib/db/collections.js';
import { HttpError } from '../../lib/errors/http-errors.js';
import { updateObject } from '../../lib/objects/object-writes.js';
import { MetadataValidators } from '../../lib/validation/metadata-schema.js';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { interceptWrites } from '../support/intercept-writes.js';

describe('an Object write racing a rename of its type', () => {
  let h: Harness;
  before(async () => {
    h = await freshHarness();
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  it('answers 409 and leaves the Object under the new slug, instead of writing the old one back', async () => {
    const api = bucketClient(h.app, await h.bucket('race'));
    await api.post('/object-types', { title: 'Authors' }).expect(200);
    const id = String((await api.post('/objects', { title: 'Ann', type: 'authors' }).expect(200)).body.object.id);
    const bucket = await bucketsCollection(h.db).findOne({ slug: 'race' });
    assert.ok(bucket);
    let renamed = false;
    // The rename lands after this PATCH read the Object and its type, just before it writes.
    const db = interceptWrites(h.db, async ({ collection, method }) => {
      if (collection === 'objects' && method === 'replaceOne' && !renamed) {
        renamed = true;
        await api.patch('/object-types/authors', { slug: 'writers' }).expect(200);
      }
    });
    const attempt = updateObject({ ...h.writes, db, validators: new MetadataValidators() }, bucket, id, {
      title: 'Ann B.',
    });
    await assert.rejects(attempt, (err: unknown) => err instanceof HttpError && err.status === 409);
    const stored = await objectsCollection(h.db).findOne({ title: 'Ann' });
    assert.equal(stored?.type, 'writers');
    // The same PATCH, retried, goes through under the new slug.
    const retried = await api.patch(`/objects/${id}`, { title: 'Ann B.' }).expect(200);
    assert.equal(retried.body.object.type, 'writers');
  });
});
