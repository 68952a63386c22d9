import assert from 'node:assert/strict';
import request from 'supertest';
import { objectsCollection, objectTypesCollection } from '../../lib/db/collections.js';
import { mediaCollection } from '../../lib/store/media.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';

const KEY = 'Idempotency-Key';
const REPLAYED = 'idempotent-replayed';

describe('Idempotency-Key on POST: a retry answers the first answer and writes nothing again', () => {
  let other: ReturnType<typeof bucketClient>;
  let writeKey: string;
  const suite = new BucketSuite('idem', async () => {
    writeKey = suite.keys.write_key ?? '';
    other = bucketClient(suite.harness.app, await suite.harness.bucket('idem-other'));
    await suite.api.post('/object-types', { title: 'Posts' }).expect(200);
    await other.post('/object-types', { title: 'Posts' }).expect(200);
  });

  const titled = (title: string) => objectsCollection(suite.harness.db).countDocuments({ title });

  it('a retried create with the same key answers the same Object, marked as a replay, and there is one Object', async () => {
    const body = { title: 'Once only', type: 'posts' };
    const first = await suite.api.post('/objects', body).set(KEY, 'create-1').expect(200);
    assert.equal(first.headers[REPLAYED], undefined, 'the first answer is no replay');
    const again = await suite.api.post('/objects', body).set(KEY, 'create-1').expect(200);
    assert.equal(again.headers[REPLAYED], 'true');
    assert.equal(again.text, first.text, 'the same status and body');
    assert.equal(await titled('Once only'), 1);
  });

  it('the same key with another body is refused with 422 naming the key, and writes nothing', async () => {
    await suite.api.post('/objects', { title: 'Reused A', type: 'posts' }).set(KEY, 'reused').expect(200);
    const res = await suite.api.post('/objects', { title: 'Reused B', type: 'posts' }).set(KEY, 'reused').expect(422);
    assert.equal(res.body.code, 'idempotency_key_reused');
    assert.match(res.body.message, /Idempotency-Key 'reused'/);
    assert.equal(await titled('Reused B'), 0);
    const elsewhere = await suite.api.post('/object-types', { title: 'Reused A' }).set(KEY, 'reused').expect(422);
    assert.equal(elsewhere.body.code, 'idempotency_key_reused', 'another route is another request');
  });

  it('keys are per Bucket: the same key and body on two Buckets make one Object in each', async () => {
    const body = { title: 'Twin', type: 'posts' };
    const a = await suite.api.post('/objects', body).set(KEY, 'shared').expect(200);
    const b = await other.post('/objects', body).set(KEY, 'shared').expect(200);
    assert.equal(b.headers[REPLAYED], undefined);
    assert.notEqual(a.body.object.id, b.body.object.id);
    const bAgain = await other.post('/objects', body).set(KEY, 'shared').expect(200);
    assert.equal(bAgain.headers[REPLAYED], 'true');
    assert.equal(bAgain.body.object.id, b.body.object.id, 'each Bucket replays its own answer');
    assert.equal(await titled('Twin'), 2);
  });

  it('refuses a key that is empty, longer than 255 characters, or not visible ASCII, before writing', async () => {
    for (const bad of ['', 'x'.repeat(256), 'has space', 'caf\u00e9']) {
      const res = await suite.api.post('/objects', { title: 'Bad key', type: 'posts' }).set(KEY, bad).expect(400);
      assert.equal(res.body.code, 'bad_request');
      assert.match(res.body.message, /Idempotency-Key/);
    }
    await suite.api.post('/objects', { title: 'Bad key', type: 'posts' }).set(KEY, 'k'.repeat(255)).expect(200);
    assert.equal(await titled('Bad key'), 1);
  });

  it('other POSTs replay their stored answer: an Object type is created once', async () => {
    const first = await suite.api.post('/object-types', { title: 'Pages' }).set(KEY, 'type-1').expect(200);
    const again = await suite.api.post('/object-types', { title: 'Pages' }).set(KEY, 'type-1').expect(200);
    assert.equal(again.headers[REPLAYED], 'true');
    assert.equal(again.text, first.text);
    assert.equal(await objectTypesCollection(suite.harness.db).countDocuments({ title: 'Pages' }), 1);
  });

  it('keeps no refusal: a retry after a 400 runs again', async () => {
    const body = { title: 'Later', type: 'articles' };
    await suite.api.post('/objects', body).set(KEY, 'after-400').expect(400);
    await suite.api.post('/object-types', { title: 'Articles' }).expect(200);
    const res = await suite.api.post('/objects', body).set(KEY, 'after-400').expect(200);
    assert.equal(res.headers[REPLAYED], undefined);
    const again = await suite.api.post('/objects', body).set(KEY, 'after-400').expect(200);
    assert.equal(again.headers[REPLAYED], 'true', 'the success is kept');
    assert.equal(await titled('Later'), 1);
  });

  it('v1 and v2 creates take the key too', async () => {
    const v1 = () =>
      request(suite.harness.app)
        .post('/v1/idem/add-object')
        .set('Authorization', `Bearer ${writeKey}`)
        .set(KEY, 'v1-create')
        .send({ title: 'From v1', type_slug: 'posts' });
    await v1().expect(200);
    assert.equal((await v1().expect(200)).headers[REPLAYED], 'true');
    const v2 = () =>
      request(suite.harness.app)
        .post('/v2/buckets/idem/objects')
        .set('Authorization', `Bearer ${writeKey}`)
        .set(KEY, 'v2-create')
        .send({ title: 'From v2', type: 'posts' });
    await v2().expect(200);
    assert.equal((await v2().expect(200)).headers[REPLAYED], 'true');
    assert.equal(await titled('From v1'), 1);
    assert.equal(await titled('From v2'), 1);
  });

  it('a retried upload answers the first media item and keeps one stored file', async () => {
    const upload = () =>
      request(suite.harness.app)
        .post('/v3/buckets/idem/media')
        .set('Authorization', `Bearer ${writeKey}`)
        .set(KEY, 'upload-1')
        .attach('media', Buffer.from('idempotent bytes'), { filename: 'once.txt', contentType: 'text/plain' });
    const files = () => suite.harness.db.collection('media_files.files').countDocuments();
    const first = await upload().expect(200);
    const before = await files();
    const again = await upload().expect(200);
    assert.equal(again.headers[REPLAYED], 'true');
    assert.equal(again.body.media.id, first.body.media.id);
    assert.equal(await mediaCollection(suite.harness.db).countDocuments({ original_name: 'once.txt' }), 1);
    assert.equal(await files(), before, "the retry's own stored file is removed");
    const changed = await request(suite.harness.app)
      .post('/v3/buckets/idem/media')
      .set('Authorization', `Bearer ${writeKey}`)
      .set(KEY, 'upload-1')
      .attach('media', Buffer.from('other bytes, same name'), { filename: 'once.txt', contentType: 'text/plain' })
      .expect(422);
    assert.equal(changed.body.code, 'idempotency_key_reused', 'another file is another request');
    assert.equal(await files(), before);
  });

  it('forgets a key after 24 hours: the same key then makes a new Object', async () => {
    const body = { title: 'Yesterday', type: 'posts' };
    await suite.api.post('/objects', body).set(KEY, 'old-key').expect(200);
    await suite.api.post('/objects', body).set(KEY, 'old-key').expect(200).expect(REPLAYED, 'true');
    const dayAgo = new Date(Date.now() - 24 * 3600_000 - 1000);
    await suite.harness.db
      .collection('idempotency_keys')
      .updateMany({ key: 'old-key' }, { $set: { expires_at: dayAgo } });
    await objectsCollection(suite.harness.db).updateOne({ title: 'Yesterday' }, { $set: { created_at: dayAgo } });
    const res = await suite.api.post('/objects', body).set(KEY, 'old-key').expect(200);
    assert.equal(res.headers[REPLAYED], undefined);
    assert.equal(await titled('Yesterday'), 2);
  });
});
