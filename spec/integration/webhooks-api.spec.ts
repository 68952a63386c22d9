import assert from 'node:assert/strict';
import request from 'supertest';
import { deliveriesCollection, webhooksCollection } from '../../lib/store/webhooks.js';
import { webhookClient } from '../support/webhook-client.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('webhook management API', () => {
  let api: ReturnType<typeof webhookClient>;
  const suite = new BucketSuite('hooks', () => {
    api = webhookClient(suite.harness.app, suite.keys);
  });

  /** What reads answer for every custom header value. */
  const MASK = '••••';
  const valid = { title: 'CI', endpoint: 'https://hooks.example.com/in', events: ['object.created'] };

  it('creates a webhook and answers its secret once, never on reads', async () => {
    const created = await api
      .post('/webhooks', {
        ...valid,
        object_types: ['posts'],
        props: 'id, title,metadata.price',
        payload: true,
        headers: { 'X-Token': 'abc' },
      })
      .expect(200);
    const hook = created.body.webhook;
    assert.equal(created.headers['cache-control'], 'no-store');
    assert.match(hook.secret, /^whsec_/);
    assert.match(hook.id, /^[0-9a-f]{24}$/);
    assert.deepEqual(
      { ...hook, id: undefined, secret: undefined, created_at: undefined, modified_at: undefined },
      {
        id: undefined,
        secret: undefined,
        created_at: undefined,
        modified_at: undefined,
        title: 'CI',
        endpoint: 'https://hooks.example.com/in',
        events: ['object.created'],
        object_types: ['posts'],
        props: 'id,title,metadata.price',
        payload: true,
        headers: { 'X-Token': MASK },
        enabled: true,
        disabled_reason: null,
        consecutive_failures: 0,
        paused_until: null,
      },
    );
    const one = await api.get(`/webhooks/${hook.id}`).expect(200);
    assert.equal(one.body.webhook.secret, undefined);
    assert.equal(one.body.webhook.title, 'CI');
    const list = await api.get('/webhooks').expect(200);
    assert.equal(list.body.total, 1);
    assert.equal(list.body.webhooks[0].secret, undefined);
    assert.ok(!JSON.stringify(list.body).includes(hook.secret));
    // Kept to sign with.
    assert.equal((await webhooksCollection(suite.harness.db).findOne({}))?.secret, hook.secret);
  });

  it('answers header names with masked values; an edit that sends the mask back keeps the stored value', async () => {
    const secretHeaders = { Authorization: 'Bearer s3cret-token', 'X-Env': 'prod' };
    const made = (await api.post('/webhooks', { ...valid, headers: secretHeaders }).expect(200)).body.webhook;
    assert.deepEqual(made.headers, { Authorization: MASK, 'X-Env': MASK });
    const one = (await api.get(`/webhooks/${made.id}`).expect(200)).body.webhook;
    assert.deepEqual(one.headers, { Authorization: MASK, 'X-Env': MASK });
    const list = await api.get('/webhooks').expect(200);
    assert.ok(!JSON.stringify(list.body).includes('s3cret'));
    const stored = async () =>
      (await webhooksCollection(suite.harness.db).findOne({ endpoint: valid.endpoint, title: 'masked' }))?.headers;
    // The read sent back with one value changed: the other keeps its secret.
    const patched = await api
      .patch(`/webhooks/${made.id}`, { title: 'masked', headers: { ...one.headers, 'X-Env': 'staging' } })
      .expect(200);
    assert.deepEqual(patched.body.webhook.headers, { Authorization: MASK, 'X-Env': MASK });
    assert.deepEqual(await stored(), [
      { name: 'Authorization', value: 'Bearer s3cret-token' },
      { name: 'X-Env', value: 'staging' },
    ]);
    // Names are case-insensitive; the spelling sent is kept.
    await api.patch(`/webhooks/${made.id}`, { headers: { authorization: MASK } }).expect(200);
    assert.deepEqual(await stored(), [{ name: 'authorization', value: 'Bearer s3cret-token' }]);
    // The mask of a header with nothing stored is a mistake, not a value: nothing changes.
    const none = await api.patch(`/webhooks/${made.id}`, { headers: { authorization: MASK, 'X-New': MASK } });
    assert.equal(none.status, 400);
    assert.equal(none.body.code, 'invalid_body');
    assert.match(none.body.message, /body\.headers\.X-New is the mask of a stored value, and "X-New" has none/);
    assert.deepEqual(await stored(), [{ name: 'authorization', value: 'Bearer s3cret-token' }]);
    const create = await api.post('/webhooks', { ...valid, headers: { 'X-A': MASK } }).expect(400);
    assert.match(create.body.message, /body\.headers\.X-A is the mask of a stored value, and "X-A" has none/);
    await api.delete(`/webhooks/${made.id}`).expect(200);
  });

  it('defaults title to the endpoint host, payload to true, filters to none', async () => {
    const res = await api
      .post('/webhooks', { endpoint: 'http://10.0.0.5:8080/x', events: ['media.created'] })
      .expect(200);
    const w = res.body.webhook;
    assert.deepEqual([w.title, w.payload, w.object_types, w.props, w.headers], ['10.0.0.5:8080', true, null, null, {}]);
    await api.delete(`/webhooks/${w.id}`).expect(200);
  });

  it('rotates the secret: the new one is answered once and the old one is gone', async () => {
    const made = (await api.post('/webhooks', valid).expect(200)).body.webhook;
    const rotated = (await api.post(`/webhooks/${made.id}/rotate-secret`, {}).expect(200)).body.webhook;
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, made.secret);
    assert.equal(
      (await webhooksCollection(suite.harness.db).findOne({}, { sort: { _id: -1 } }))?.secret,
      rotated.secret,
    );
    await api.delete(`/webhooks/${made.id}`).expect(200);
  });

  it('refuses bad input with a 400 naming each problem', async () => {
    const cases: [object, RegExp][] = [
      [{ ...valid, events: ['object.saved'] }, /body\.events\[0\] must be one of "object\.created"/],
      [{ ...valid, events: [] }, /body\.events must not be empty/],
      [
        { ...valid, endpoint: '/relative/path' },
        /body\.endpoint "\/relative\/path" must be an absolute http or https URL/,
      ],
      [{ ...valid, endpoint: 'ftp://x.example/' }, /must use http or https, got "ftp"/],
      [{ ...valid, endpoint: 'https://user:pw@x.example/' }, /must not hold credentials/],
      [{ ...valid, colour: 'red' }, /unknown field "colour" in body/],
      [
        { ...valid, headers: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v'])) },
        /body\.headers must NOT have more than 10 properties/,
      ],
      [{ ...valid, headers: { Connection: 'close' } }, /"Connection" cannot be set/],
      [{ ...valid, headers: { host: 'evil' } }, /"host" cannot be set/],
      [{ ...valid, headers: { 'Webhook-Signature': 'v1,x' } }, /"Webhook-Signature" cannot be set/],
      [{ ...valid, headers: { 'X-A': 'line\r\nInjected: 1' } }, /body\.headers\.X-A must be printable ASCII/],
      [{ ...valid, headers: { 'bad name': 'v' } }, /"bad name" is not a valid header name/],
      [{ ...valid, headers: { 'X-A': '1', 'x-a': '2' } }, /"x-a" is given twice/],
      [{ ...valid, props: 'id,__proto__' }, /body\.props: "__proto__"/],
      [{ ...valid, object_types: ['Posts'] }, /body\.object_types\[0\] "Posts" must be an Object type slug/],
      [{ endpoint: 'https://x.example/' }, /body\.events is required|must have required property 'events'/],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/webhooks', body).expect(400);
      assert.equal(res.body.code, 'invalid_body', JSON.stringify(body));
      assert.match(res.body.message, message, JSON.stringify(body));
    }
    const several = await api.post('/webhooks', { endpoint: 'nope', events: ['x'], extra: 1 }).expect(400);
    assert.match(several.body.message, /unknown field "extra"/);
    assert.match(several.body.message, /body\.events\[0\]/);
    assert.equal(await webhooksCollection(suite.harness.db).countDocuments({ endpoint: 'nope' }), 0);
  });

  it('patches fields, checks them like create, and re-enabling clears the reason', async () => {
    const w = (await api.post('/webhooks', valid).expect(200)).body.webhook;
    await webhooksCollection(suite.harness.db).updateOne(
      { title: 'CI', enabled: true },
      {
        $set: {
          enabled: false,
          disabled_reason: 'disabled after 20 consecutive failed deliveries',
          consecutive_failures: 20,
        },
      },
    );
    const patched = await api
      .patch(`/webhooks/${w.id}`, {
        events: ['object.created', 'object.deleted'],
        headers: {},
        props: null,
        enabled: true,
      })
      .expect(200);
    assert.deepEqual(patched.body.webhook.events, ['object.created', 'object.deleted']);
    assert.equal(patched.body.webhook.enabled, true);
    assert.equal(patched.body.webhook.disabled_reason, null);
    assert.equal(patched.body.webhook.consecutive_failures, 0);
    assert.equal(patched.body.webhook.secret, undefined);
    await api.patch(`/webhooks/${w.id}`, {}).expect(400);
    const bad = await api.patch(`/webhooks/${w.id}`, { endpoint: 'relative' }).expect(400);
    assert.match(bad.body.message, /body\.endpoint "relative" must be an absolute http or https URL/);
    await api.delete(`/webhooks/${w.id}`).expect(200);
  });

  it('deletes a webhook with its delivery log', async () => {
    const w = (await api.post('/webhooks', valid).expect(200)).body.webhook;
    await api.post(`/webhooks/${w.id}/test`, {}).expect(200);
    assert.equal(await deliveriesCollection(suite.harness.db).countDocuments({ type: 'ping' }), 1);
    const res = await api.delete(`/webhooks/${w.id}`).expect(200);
    assert.equal(res.body.message, `Webhook with id '${w.id}' deleted successfully from bucket.`);
    assert.equal(await deliveriesCollection(suite.harness.db).countDocuments({ type: 'ping' }), 0);
    await api.get(`/webhooks/${w.id}`).expect(404);
  });

  it('answers 404 with its own codes for unknown webhooks and deliveries', async () => {
    const missing = await api.get('/webhooks/65a1b2c3d4e5f6a7b8c9d0e1').expect(404);
    assert.equal(missing.body.code, 'webhook_not_found');
    assert.match(missing.body.message, /Webhook with id '65a1b2c3d4e5f6a7b8c9d0e1' not found in bucket 'hooks'/);
    assert.equal((await api.get('/webhooks/not-an-id').expect(404)).body.code, 'webhook_not_found');
    await api.patch('/webhooks/65a1b2c3d4e5f6a7b8c9d0e1', { title: 'x' }).expect(404);
    await api.delete('/webhooks/65a1b2c3d4e5f6a7b8c9d0e1').expect(404);
    await api.post('/webhooks/65a1b2c3d4e5f6a7b8c9d0e1/test', {}).expect(404);
    const w = (await api.post('/webhooks', valid).expect(200)).body.webhook;
    const d = await api.get(`/webhooks/${w.id}/deliveries/65a1b2c3d4e5f6a7b8c9d0e1`).expect(404);
    assert.equal(d.body.code, 'delivery_not_found');
    await api.post(`/webhooks/${w.id}/deliveries/zz/redeliver`, {}).expect(404);
    await api.delete(`/webhooks/${w.id}`).expect(200);
  });

  it('takes only the write key', async () => {
    const base = `/v3/buckets/${suite.keys.slug}/webhooks`;
    await request(suite.harness.app).get(base).expect(401);
    await request(suite.harness.app)
      .get(`${base}?read_key=${suite.keys.read_key ?? ''}`)
      .expect(401);
    await request(suite.harness.app)
      .get(base)
      .set('Authorization', `Bearer ${suite.keys.read_key ?? ''}`)
      .expect(401);
    await request(suite.harness.app).post(base).send(valid).expect(401);
    await request(suite.harness.app)
      .get(base)
      .set('Authorization', `Bearer ${suite.keys.write_key ?? ''}`)
      .expect(200);
  });

  it('checks the deliveries list parameters', async () => {
    const w = (await api.post('/webhooks', valid).expect(200)).body.webhook;
    const bad = await api.get(`/webhooks/${w.id}/deliveries?status=sent&limit=0&after=x`).expect(400);
    assert.equal(bad.body.code, 'invalid_parameter');
    assert.match(bad.body.message, /status must be one of pending, delivered, failed, got "sent"/);
    assert.match(bad.body.message, /limit must be/);
    assert.match(bad.body.message, /after must be the id/);
    await api.delete(`/webhooks/${w.id}`).expect(200);
  });
});
