import assert from 'node:assert/strict';
import request from 'supertest';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { account, PASSWORD, tokenOf } from '../support/accounts.js';
import { forgetCosmicV1Token } from '../support/cosmic-v1.js';
import { cosmicV2For } from '../support/cosmic-v2.js';

describe('accounts: Bucket users routes and the legacy clients', () => {
  let h: Harness;
  let admin: string;
  before(async () => {
    h = await freshHarness();
    // Contributors name the Object types they may edit, which must exist.
    await bucketClient(h.app, await h.bucket('team'))
      .post('/object-types', { title: 'Posts' })
      .expect(200);
    await account(h, 'boss@example.com', 'team');
    admin = await tokenOf(h, 'boss@example.com', 'v1');
  });
  after(() => {
    forgetCosmicV1Token();
    assert.deepEqual(h.errors, []);
  });

  it('adds, lists, reads, edits and removes users on v1 and v2 paths', async () => {
    for (const base of ['/v1/team/users', '/v2/buckets/team/users']) {
      const email = `${base.startsWith('/v1') ? 'one' : 'two'}@example.com`;
      const added = await request(h.app)
        .post(base)
        .set('Authorization', admin)
        .send({ first_name: 'C', last_name: 'D', email, role: 'contributor', object_types: 'posts', bio: 'hi' })
        .expect(200);
      assert.match(added.body.message, /pending: no e-mail is sent/);
      const id = String(added.body.user.id);
      const list = await request(h.app).get(base).set('Authorization', admin).expect(200);
      assert.equal(list.body.total, list.body.users.length);
      const one = await request(h.app).get(`${base}/${id}`).set('Authorization', admin).expect(200);
      assert.deepEqual(
        [one.body.user.email, one.body.user.role, one.body.user.object_types, one.body.user.bio, one.body.user.status],
        [email, 'contributor', ['posts'], 'hi', 'pending'],
      );
      const edited = await request(h.app)
        .patch(`${base}/${id}`)
        .set('Authorization', admin)
        .send({ role: 'editor', publishing_restrictions: 'draft_only', additional_permissions: ['sort_metafields'] })
        .expect(200);
      assert.equal(edited.body.user.role, 'editor');
      assert.equal(edited.body.user.publishing_restrictions, 'draft_only');
      await request(h.app).delete(`${base}/${id}`).set('Authorization', admin).expect(200);
      await request(h.app).get(`${base}/${id}`).set('Authorization', admin).expect(404);
    }
  });

  it('reports every problem of an add or edit body in one 400', async () => {
    const add = await request(h.app)
      .post('/v1/team/users')
      .set('Authorization', admin)
      .send({ email: 'not-an-email', role: 'contributor', additional_permissions: ['root'] })
      .expect(400);
    for (const part of [
      'first_name',
      'last_name',
      'email must be',
      'additional_permissions',
      'object_types is required',
    ]) {
      assert.ok(add.body.message.includes(part), `${part}: ${add.body.message}`);
    }
    const boss = (await request(h.app).get('/v1/team/users').set('Authorization', admin)).body.users[0].id as string;
    const edit = await request(h.app).patch(`/v1/team/users/${boss}`).set('Authorization', admin).send({}).expect(400);
    assert.match(edit.body.message, /role is required/);
    const last = await request(h.app)
      .patch(`/v1/team/users/${boss}`)
      .set('Authorization', admin)
      .send({ role: 'editor' })
      .expect(400);
    assert.match(last.body.message, /at least one admin/);
  });

  it('needs an account token with admin access: 401 without, 403 for an editor, the Bucket key is not enough', async () => {
    await request(h.app).get('/v1/team/users').expect(401);
    const id = await account(h, 'ed@example.com');
    await request(h.app)
      .post('/v2/buckets/team/users')
      .set('Authorization', admin)
      .send({ first_name: 'E', last_name: 'D', email: 'ed@example.com', role: 'editor' })
      .expect(200);
    const editor = await tokenOf(h, 'ed@example.com');
    const res = await request(h.app).get('/v1/team/users').set('Authorization', editor).expect(403);
    assert.equal(res.body.code, 'forbidden');
    assert.ok(id);
  });

  it('the cosmicjs 4.3.7 client: authenticate, getUser, getBuckets, addUser, getUsers, getUser', async () => {
    const Cosmic = await cosmicV2For(h);
    const auth = await Cosmic().authenticate({ email: 'boss@example.com', password: PASSWORD });
    const api = Cosmic({ token: String(auth.token) });
    try {
      const me = (await api.getUser()) as { user: { email: string } };
      assert.equal(me.user.email, 'boss@example.com');
      const buckets = (await api.getBuckets()) as { buckets: { slug: string; id: string }[] };
      assert.equal(buckets.buckets[0]?.slug, 'team');
      const bucket = api.bucket({ slug: 'team' });
      const added = (await bucket.addUser({
        first_name: 'V',
        last_name: 'Two',
        email: 'v2@example.com',
        role: 'admin',
      })) as {
        user: { id: string };
      };
      const users = (await bucket.getUsers()) as { users: { email: string }[] };
      assert.ok(users.users.some((u) => u.email === 'v2@example.com'));
      const one = (await bucket.getUser({ id: added.user.id })) as { user: { role: string } };
      assert.equal(one.user.role, 'admin');
    } finally {
      forgetCosmicV1Token();
    }
  });
});
