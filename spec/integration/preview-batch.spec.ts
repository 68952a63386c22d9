import assert from 'node:assert/strict';
import { SignJWT } from 'jose';
import request from 'supertest';
import { bucketsCollection } from '../../lib/db/collections.js';
import { bucketClient } from '../support/client.js';
import { PreviewSecret, issuePreviewToken } from '../../lib/preview/preview-tokens.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('preview tokens', () => {
  let id: string;
  const suite = new BucketSuite('preview', async () => {
    await suite.api.post('/object-types', { title: 'Pages' }).expect(200);
    id = (await suite.api.post('/objects', { title: 'Live', type: 'pages' }).expect(200)).body.object.id;
    await suite.api.post(`/objects/${id}/revisions`, { title: 'Draft' }).expect(200);
  });

  const read = (path: string, token: string) =>
    request(suite.harness.app).get(
      `/v3/buckets/preview${path}${path.includes('?') ? '&' : '?'}read_key=${suite.keys.read_key}&preview_token=${encodeURIComponent(token)}`,
    );

  it('issues a token valid one hour that makes reads behave as status=any', async () => {
    const issued = await suite.api.post('/preview-tokens', { object_id: id }).expect(200);
    const ttl = Date.parse(issued.body.expires_at) - Date.now();
    assert.ok(ttl > 59 * 60_000 && ttl <= 3600_000, String(ttl));
    const one = await read(`/objects/${id}`, issued.body.preview_token).expect(200);
    assert.equal(one.body.object.title, 'Draft');
    const list = await read(
      `/objects?query=${encodeURIComponent('{"type":"pages"}')}`,
      issued.body.preview_token,
    ).expect(200);
    assert.equal(list.body.objects[0].title, 'Draft');
    await read(`/objects/${id}/revisions`, issued.body.preview_token).expect(200);
    const plain = await suite.api.get(`/objects/${id}`).expect(200);
    assert.equal(plain.body.object.title, 'Live');
  });

  it('still requires the read key', async () => {
    const token = (await suite.api.post('/preview-tokens', {}).expect(200)).body.preview_token;
    await request(suite.harness.app).get(`/v3/buckets/preview/objects/${id}?preview_token=${token}`).expect(401);
  });

  it('refuses forged, expired and other-Bucket tokens with 401', async () => {
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('x')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret!!'));
    const res = await read(`/objects/${id}`, forged).expect(401);
    assert.match(res.body.message, /preview_token is not valid/);
    await read(`/objects/${id}`, 'garbage').expect(401);
    const bucket = await bucketsCollection(suite.harness.db).findOne({ slug: 'preview' });
    assert.ok(bucket);
    const secret = new PreviewSecret(suite.harness.db, null);
    const old = await issuePreviewToken(secret, bucket, null, new Date(Date.now() - 2 * 3600_000));
    const expired = await read(`/objects/${id}`, old.preview_token).expect(401);
    assert.match(expired.body.message, /expired/);
    const otherKeys = await suite.harness.bucket('preview-other');
    const otherToken = (await bucketClient(suite.harness.app, otherKeys).post('/preview-tokens', {}).expect(200)).body
      .preview_token;
    await read(`/objects/${id}`, otherToken).expect(401);
  });

  it('requires the write key to issue and checks the object id', async () => {
    await request(suite.harness.app).post('/v3/buckets/preview/preview-tokens').send({}).expect(401);
    await suite.api.post('/preview-tokens', { object_id: 'aaaaaaaaaaaaaaaaaaaaaaaa' }).expect(404);
    await suite.api.post('/preview-tokens', { object_id: 'bad' }).expect(400);
  });
});

describe('POST /objects/batch', () => {
  const suite = new BucketSuite('batch', async () => {
    await suite.api
      .post('/object-types', { title: 'Items', metafields: [{ type: 'number', title: 'N', key: 'n', value: '' }] })
      .expect(200);
  });

  it('applies 25 mixed operations independently, in order, each with its own status', async () => {
    const existing = (await suite.api.post('/objects', { title: 'Existing', type: 'items' }).expect(200)).body.object
      .id;
    const ops: unknown[] = [];
    for (let i = 0; i < 20; i++)
      ops.push({ method: 'add', object: { title: `Item ${i}`, type: 'items', metadata: { n: i } } });
    ops.push({ method: 'add', object: { title: 'Bad', type: 'items', metadata: { n: 'x' } } });
    ops.push({ method: 'edit', object_id: existing, object: { title: 'Edited' } });
    ops.push({ method: 'edit', object_id: 'aaaaaaaaaaaaaaaaaaaaaaaa', object: { title: 'Nobody' } });
    ops.push({ method: 'delete', object_id: existing });
    ops.push({ method: 'fly' });
    const res = await suite.api.post('/objects/batch', { operations: ops }).expect(200);
    const results = res.body.operations;
    assert.equal(results.length, 25);
    assert.deepEqual(
      results.map((r: { status: number }) => r.status),
      [...Array(20).fill(200), 400, 200, 404, 200, 400],
    );
    assert.equal(results[3].object.title, 'Item 3');
    assert.match(results[20].message, /key "n" of type "number"/);
    assert.equal(results[21].object.title, 'Edited');
    assert.match(results[23].message, /deleted successfully/);
    assert.match(results[24].message, /method must be add, edit or delete/);
    assert.deepEqual(
      [20, 22, 24].map((i) => results[i].code),
      ['metafield_invalid', 'object_not_found', 'invalid_body'],
    );
    assert.equal(results[21].code, undefined, 'a success carries no code');
    const list = await suite.api.get(`/objects?query=${encodeURIComponent('{"type":"items"}')}&limit=1`).expect(200);
    assert.equal(list.body.total, 20, 'the failures undid nothing');
  });

  it('names the failing operation, its index and method, in each failure message', async () => {
    const id = (await suite.api.post('/objects', { title: 'Target', type: 'items' }).expect(200)).body.object.id;
    const res = await suite.api
      .post('/objects/batch', {
        operations: [
          { method: 'add', object: { title: 'Fine', type: 'items' } },
          { method: 'edit', object_id: id, object: {} },
          { method: 'add', object: { title: 'Bad', type: 'items', metadata: { n: 'x' } } },
          { method: 'add', object: { type: 'items', colour: 'red' } },
          { method: 'delete' },
          { method: 'edit', object_id: 'aaaaaaaaaaaaaaaaaaaaaaaa', object: { title: 'Nobody' } },
          { method: 'fly' },
        ],
      })
      .expect(200);
    const messages = (res.body.operations as Array<{ status: number; message?: string }>).map((o) => o.message);
    assert.equal(messages[0], undefined);
    assert.equal(messages[1], 'operations[1] (edit): object must have at least one field');
    assert.match(messages[2] ?? '', /^operations\[2\] \(add\): invalid value for key "n" of type "number"/);
    assert.equal(messages[3], 'operations[3] (add): object.title is required; unknown field "colour" in object');
    assert.equal(messages[4], 'operations[4] (delete): object_id is required');
    assert.match(messages[5] ?? '', /^operations\[5\] \(edit\): Object with id 'aaaaaaaaaaaaaaaaaaaaaaaa' not found/);
    assert.equal(messages[6], 'operations[6]: method must be add, edit or delete, got "fly"');
    // A request alone keeps its own wording.
    const alone = await suite.api.post('/objects', { type: 'items' }).expect(400);
    assert.equal(alone.body.message, 'Invalid request body: body.title is required');
  });

  it('refuses more than 25 operations and malformed envelopes with 400', async () => {
    const ops = Array.from({ length: 26 }, (_, i) => ({ method: 'add', object: { title: `T${i}`, type: 'items' } }));
    const res = await suite.api.post('/objects/batch', { operations: ops }).expect(400);
    assert.match(res.body.message, /operations/);
    await suite.api.post('/objects/batch', {}).expect(400);
    await suite.api.post('/objects/batch', { operations: [] }).expect(400);
    await suite.api.post('/objects/batch', { operations: 'nope' }).expect(400);
    await suite.api.post('/objects/batch', { operations: [1] }).expect(400);
    const none = await suite.api.get(`/objects?query=${encodeURIComponent('{"title":"T0"}')}`).expect(404);
    assert.equal(none.body.status, 404);
  });
});
