import assert from 'node:assert/strict';
import request from 'supertest';
import { upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));

describe('error codes of routes', () => {
  let postId: string;
  const suite = new BucketSuite('alpha', async () => {
    await suite.api
      .post('/object-types', { title: 'Posts', metafields: [{ type: 'number', title: 'N', key: 'n', value: '' }] })
      .expect(200);
    postId = (await suite.api.post('/objects', { title: 'First', type: 'posts' }).expect(200)).body.object.id;
  });

  /** Asserts the whole error body shape and returns it. */
  async function expectError(
    res: request.Test,
    status: number,
    code: string,
  ): Promise<{ status: number; code: string; message: string }> {
    const { body } = await res.expect(status).expect('content-type', /application\/json/);
    assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'status']);
    assert.equal(body.status, status);
    assert.equal(body.code, code, body.message);
    return body;
  }

  it('bad list parameters: invalid_query and invalid_parameter', async () => {
    const notJson = await expectError(suite.api.get('/objects?query=%7Bnope'), 400, 'invalid_query');
    assert.match(notJson.message, /^Malformed query: not valid JSON/);
    await expectError(suite.api.get(`/objects?query=${q({ colour: 'red' })}`), 400, 'invalid_query');
    await expectError(suite.api.get(`/objects?query=${q({ title: { $where: 'x' } })}`), 400, 'invalid_query');
    await expectError(suite.api.get('/objects?sort=sideways'), 400, 'invalid_parameter');
    await expectError(suite.api.get('/objects?props=a..b'), 400, 'invalid_parameter');
    await expectError(suite.api.get('/media?after=aaaaaaaaaaaaaaaaaaaaaaaa'), 400, 'invalid_parameter');
  });

  it('bad bodies: invalid_body, metafield_invalid and slug_taken', async () => {
    await expectError(suite.api.post('/objects', { type: 'posts' }), 400, 'invalid_body');
    await expectError(suite.api.post('/objects', { title: 'X', type: 'ghosts' }), 400, 'invalid_body');
    await expectError(suite.api.post('/object-types', { title: 'T', colour: 'red' }), 400, 'invalid_body');
    const metadata = await expectError(
      suite.api.post('/objects', { title: 'X', type: 'posts', metadata: { n: 'ten' } }),
      400,
      'metafield_invalid',
    );
    assert.match(metadata.message, /key "n" of type "number"/);
    await expectError(suite.api.post('/objects', { title: 'Y', type: 'posts', slug: 'first' }), 400, 'slug_taken');
    await expectError(suite.api.post('/object-types', { title: 'Other', slug: 'posts' }), 400, 'slug_taken');
    await expectError(
      request(suite.harness.app)
        .post('/v3/buckets/alpha/objects')
        .set('Authorization', `Bearer ${suite.keys.write_key}`)
        .set('Content-Type', 'application/json')
        .send('{"title": '),
      400,
      'invalid_body',
    );
  });

  it('each missing resource has its own code and one wording', async () => {
    const id = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    const object = await expectError(suite.api.get(`/objects/${id}`), 404, 'object_not_found');
    assert.equal(object.message, `Object with id '${id}' not found in bucket 'alpha'`);
    const type = await expectError(suite.api.get('/object-types/ghosts'), 404, 'object_type_not_found');
    assert.equal(type.message, "Object type with slug 'ghosts' not found in bucket 'alpha'");
    const revision = await expectError(suite.api.get(`/objects/${postId}/revisions/${id}`), 404, 'revision_not_found');
    assert.equal(revision.message, `Revision with id '${id}' not found for object '${postId}' in bucket 'alpha'`);
    const media = await expectError(suite.api.get(`/media/${id}`), 404, 'media_not_found');
    assert.equal(media.message, `Media with id '${id}' not found in bucket 'alpha'`);
    const file = await expectError(request(suite.harness.app).get('/files/alpha/none.png'), 404, 'media_not_found');
    assert.equal(file.message, "Media with name 'none.png' not found in bucket 'alpha'");
    const bucket = await expectError(request(suite.harness.app).get('/files/nobody/none.png'), 404, 'bucket_not_found');
    assert.equal(bucket.message, "Bucket with slug 'nobody' not found");
    const none = await expectError(suite.api.get(`/objects?query=${q({ title: 'nothing' })}`), 404, 'no_match');
    assert.equal(none.message, "No objects found in bucket 'alpha' for this query");
    await expectError(request(suite.harness.app).get('/nothing/here'), 404, 'route_not_found');
  });

  it('a malformed percent-encoding in the path is a 400 with the error body, under /v3 too', async () => {
    for (const path of [
      '/files/alpha/%E0%A4%A',
      '/imgproc/alpha/%E0%A4%A',
      `/v3/buckets/alpha/objects/%E0%A4%A?read_key=${suite.keys.read_key}`,
      '/v3/buckets/%E0%A4%A/objects',
      '/v3/buckets/alpha/object-types/%ZZ',
    ]) {
      const body = await expectError(request(suite.harness.app).get(path), 400, 'bad_request');
      assert.match(body.message, /Malformed percent-encoding in the path/, path);
    }
  });

  describe('a NUL character in a JSON body key', () => {
    it('is a 400 naming the key, at the top level and inside metadata', async () => {
      const top = await expectError(
        suite.api.post('/objects', { title: 'Nul', type: 'posts', 'a\u0000b': 1 }),
        400,
        'invalid_body',
      );
      assert.match(top.message, /body: key "a\\u0000b" contains a NUL character/);
      const nested = await expectError(
        suite.api.post('/objects', { title: 'Nul', type: 'posts', metadata: { 'n\u0000': 1 } }),
        400,
        'invalid_body',
      );
      assert.match(nested.message, /body\.metadata: key "n\\u0000" contains a NUL character/);
      await expectError(
        suite.api.patch(`/objects/${postId}`, { metadata: { x: [{ '\u0000': 1 }] } }),
        400,
        'invalid_body',
      );
      await expectError(suite.api.post('/object-types', { title: 'T', 'k\u0000': 1 }), 400, 'invalid_body');
      await suite.api.get(`/objects?query=${q({ title: 'Nul' })}`).expect(404);
    });

    it('is a 400 in media metadata, sent as JSON or in an upload form', async () => {
      const stored = await upload(suite.harness.app, suite.keys, Buffer.from('hello'), { filename: 'a.txt' }).expect(
        200,
      );
      await expectError(
        suite.api.patch(`/media/${stored.body.media.id}`, { metadata: { 'k\u0000': 1 } }),
        400,
        'invalid_body',
      );
      const form = await expectError(
        upload(suite.harness.app, suite.keys, Buffer.from('hello'), {
          filename: 'b.txt',
          fields: { metadata: '{"k\\u0000":1}' },
        }),
        400,
        'invalid_body',
      );
      assert.match(form.message, /key "k\\u0000" may not start with "\$" or contain "\." or a NUL character/);
    });

    it('leaves NUL inside values alone', async () => {
      const res = await suite.api.post('/objects', { title: 'Nul\u0000inside', type: 'posts' }).expect(200);
      assert.equal(res.body.object.title, 'Nul\u0000inside');
    });
  });
});
