import assert from 'node:assert/strict';
import request from 'supertest';
import { objectsCollection } from '../../lib/db/collections.js';
import { imageBytes, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('An Object thumbnail names a media item of the Bucket', () => {
  let photo: string;
  const suite = new BucketSuite('thumbs', async () => {
    photo = (
      await upload(suite.harness.app, suite.keys, await imageBytes(8, 8, 'jpeg'), { filename: 'cover.jpg' }).expect(200)
    ).body.media.name;
    await suite.api.post('/object-types', { title: 'Posts' }).expect(200);
  });

  const imgproc = (name: string) => `http://api.test/imgproc/thumbs/${name}`;

  it('stores the media name and answers the image URL on create, get and list', async () => {
    const created = (
      await suite.api.post('/objects', { title: 'With cover', type: 'posts', thumbnail: photo }).expect(200)
    ).body.object;
    assert.equal(created.thumbnail, imgproc(photo));
    const stored = await objectsCollection(suite.harness.db).findOne({ slug: 'with-cover' });
    assert.equal(stored?.thumbnail, photo, 'the name is what is stored');
    assert.equal((await suite.api.get(`/objects/${created.id}`).expect(200)).body.object.thumbnail, imgproc(photo));
    const list = await suite.api.get(
      `/objects?query=${encodeURIComponent('{"slug":"with-cover"}')}&props=id,thumbnail`,
    );
    assert.deepEqual(list.body.objects, [{ id: created.id, thumbnail: imgproc(photo) }]);
    // The URL serves the image itself.
    const served = await request(suite.harness.app).get(new URL(created.thumbnail).pathname).expect(200);
    assert.equal(served.headers['content-type'], 'image/jpeg');
  });

  it('refuses a name that is no media of this Bucket, on create, patch and in a batch', async () => {
    const missing = await suite.api
      .post('/objects', { title: 'Bad', type: 'posts', thumbnail: 'nope.jpg' })
      .expect(400);
    assert.equal(missing.body.code, 'invalid_body');
    assert.match(missing.body.message, /thumbnail: no media named "nope\.jpg" in bucket 'thumbs'/);

    const otherKeys = await suite.harness.bucket('thumbs-other');
    const foreign = (
      await upload(suite.harness.app, otherKeys, await imageBytes(4, 4), { filename: 'x.png' }).expect(200)
    ).body.media.name;
    const id = (await suite.api.post('/objects', { title: 'Plain', type: 'posts' }).expect(200)).body.object.id;
    const patched = await suite.api.patch(`/objects/${id}`, { thumbnail: foreign }).expect(400);
    assert.match(patched.body.message, /thumbnail: no media named/);

    const batch = await suite.api
      .post('/objects/batch', {
        operations: [{ method: 'add', object: { title: 'B', type: 'posts', thumbnail: 'x' } }],
      })
      .expect(200);
    assert.equal(batch.body.operations[0].status, 400);
    assert.match(batch.body.operations[0].message, /thumbnail: no media named "x"/);
    assert.equal(await objectsCollection(suite.harness.db).countDocuments({ title: { $in: ['Bad', 'B'] } }), 0);
  });

  it('clears the thumbnail with null or an empty string', async () => {
    const id = (await suite.api.post('/objects', { title: 'Clear me', type: 'posts', thumbnail: photo }).expect(200))
      .body.object.id;
    assert.equal((await suite.api.patch(`/objects/${id}`, { thumbnail: '' }).expect(200)).body.object.thumbnail, null);
    await suite.api.patch(`/objects/${id}`, { thumbnail: photo }).expect(200);
    assert.equal(
      (await suite.api.patch(`/objects/${id}`, { thumbnail: null }).expect(200)).body.object.thumbnail,
      null,
    );
    const none = (await suite.api.post('/objects', { title: 'None', type: 'posts', thumbnail: '' }).expect(200)).body
      .object;
    assert.equal(none.thumbnail, null);
  });
});
