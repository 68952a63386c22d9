import assert from 'node:assert/strict';
import request from 'supertest';
import { deliveriesCollection } from '../../lib/store/webhooks.js';
import { member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

/*
 * A contributor limited to `posts`, with the `settings` permission, against a webhook that
 * carries a draft of `pages`: no webhook route answers it, on any version, since a delivery's
 * body is the content of whatever type the event touched, and a webhook it could create or
 * edit would send any type's content to an endpoint of its choice. Other roles with `settings`
 * keep the routes.
 */
const SLUG = 'hooked';
const v3 = `/v3/buckets/${SLUG}`;
const SECRET_TITLE = 'Unannounced merger (draft)';
const tokens = { contributor: '', editor: '' };
let hookId = '';
let deliveryId = '';

const as = (t: string, bare = false) => {
  const auth = bare ? t : `Bearer ${t}`;
  return {
    get: (path: string) => request(suite.harness.app).get(path).set('Authorization', auth),
    send: (method: 'post' | 'patch' | 'delete', path: string, body: object = {}) =>
      request(suite.harness.app)[method](path).set('Authorization', auth).send(body),
  };
};
const withKey = () => as(String(suite.keys.write_key));

let suite: BucketSuite;

describe('webhooks: a type-limited contributor with the settings permission', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  suite = new BucketSuite(SLUG, async (_api, context) => {
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    for (const title of ['Posts', 'Pages']) await withKey().send('post', `${v3}/object-types`, { title }).expect(200);
    const hook = await withKey()
      .send('post', `${v3}/webhooks`, { endpoint: 'https://hooks.example.com/in', events: ['object.created'] })
      .expect(200);
    hookId = String(hook.body.webhook.id);
    await withKey().send('post', `${v3}/objects`, { type: 'pages', title: SECRET_TITLE, status: 'draft' }).expect(200);
    const delivery = await deliveriesCollection(suite.harness.db).findOne({ type: 'object.created' });
    assert.ok(delivery !== null && delivery.body.includes(SECRET_TITLE));
    deliveryId = delivery._id.toHexString();
    for (const role of ['contributor', 'editor'] as const) {
      await member(suite.harness, SLUG, `${role}@example.com`, {
        role,
        additional_permissions: ['settings'],
        object_types: role === 'contributor' ? ['posts'] : [],
      });
      tokens[role] = await tokenOf(suite.harness, `${role}@example.com`);
    }
  });

  const hook = () => `${v3}/webhooks/${hookId}`;
  const delivery = () => `${hook()}/deliveries/${deliveryId}`;
  const CALLS: Record<string, (c: ReturnType<typeof as>) => request.Test> = {
    'v3 list webhooks': (c) => c.get(`${v3}/webhooks`),
    'v3 read webhook': (c) => c.get(hook()),
    'v3 list deliveries': (c) => c.get(`${hook()}/deliveries`),
    'v3 read delivery': (c) => c.get(delivery()),
    'v3 redeliver': (c) => c.send('post', `${delivery()}/redeliver`),
    'v3 test': (c) => c.send('post', `${hook()}/test`),
    'v3 create webhook': (c) =>
      c.send('post', `${v3}/webhooks`, { endpoint: 'https://attacker.example/', events: ['object.created'] }),
    'v3 edit webhook': (c) => c.send('patch', hook(), { endpoint: 'https://attacker.example/' }),
    'v3 rotate secret': (c) => c.send('post', `${hook()}/rotate-secret`),
    'v3 delete webhook': (c) => c.send('delete', `${v3}/webhooks/${'a'.repeat(24)}`),
    'v2 list deliveries': (c) => c.get(`/v2/buckets/${SLUG}/webhooks/${hookId}/deliveries`),
    'v2 read delivery': (c) => c.get(`/v2/buckets/${SLUG}/webhooks/${hookId}/deliveries/${deliveryId}`),
    'v1 list webhooks': (c) => c.get(`/v1/${SLUG}/webhooks`),
    'v1 create webhook': (c) =>
      c.send('post', `/v1/${SLUG}/webhooks`, { endpoint: 'https://attacker.example/', event: 'object.created.draft' }),
  };

  it('is refused every webhook route, v3, v2 and v1, and sees no draft of another type', async () => {
    const wrong: string[] = [];
    for (const bare of [false, true]) {
      for (const [name, call] of Object.entries(CALLS)) {
        const res = await call(as(tokens.contributor, bare));
        const refused = res.status === 403 && res.body.code === 'forbidden' && /may not manage webhooks/.test(res.text);
        if (!refused || res.text.includes(SECRET_TITLE)) wrong.push(`${name}: ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    assert.deepEqual(wrong, []);
    // Nothing was changed or queued by the refused writes.
    const hooks = await withKey().get(`${v3}/webhooks`).expect(200);
    assert.deepEqual(
      hooks.body.webhooks.map((w: { endpoint: string }) => w.endpoint),
      ['https://hooks.example.com/in'],
    );
    assert.equal(await deliveriesCollection(suite.harness.db).countDocuments({ type: 'ping' }), 0);
  });

  it('keeps the rest of what settings gives it (usage)', async () => {
    await as(tokens.contributor).get(`${v3}/usage`).expect(200);
  });

  it('leaves the webhook routes to roles that read every type (an editor with settings)', async () => {
    const editor = as(tokens.editor);
    const list = await editor.get(`${hook()}/deliveries`).expect(200);
    assert.equal(list.body.total, 1);
    const one = await editor.get(delivery()).expect(200);
    assert.equal(one.body.delivery.payload.data.title, SECRET_TITLE);
  });
});
