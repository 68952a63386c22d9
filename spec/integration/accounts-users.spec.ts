import assert from 'node:assert/strict';
import request from 'supertest';
import { account, PASSWORD, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { forgetCosmicV1Token } from '../support/cosmic-v1.js';
import { cosmicV2For } from '../support/cosmic-v2.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('accounts: Bucket users routes and the legacy clients', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let admin: string;
  const suite = new BucketSuite('team', async (api) => {
    // Contributors name the Object types they may edit, which must exist.
    await api.post('/object-types', { title: 'Posts' }).expect(200);
    await account(suite.harness, 'boss@example.com', 'team');
    admin = await tokenOf(suite.harness, 'boss@example.com', 'v1');
  });
  after(() => {
    forgetCosmicV1Token();
  });

  it('adds, lists, reads, edits and removes users on v1 and v2 paths', async () => {
    for (const base of ['/v1/team/users', '/v2/buckets/team/users']) {
      const email = `${base.startsWith('/v1') ? 'one' : 'two'}@example.com`;
      const added = await request(suite.harness.app)
        .post(base)
        .set('Authorization', admin)
        .send({ first_name: 'C', last_name: 'D', email, role: 'contributor', object_types: 'posts', bio: 'hi' })
        .expect(200);
      assert.match(added.body.message, /pending: no e-mail is sent/);
      const id = String(added.body.user.id);
      const list = await request(suite.harness.app).get(base).set('Authorization', admin).expect(200);
      assert.equal(list.body.total, list.body.users.length);
      const one = await request(suite.harness.app).get(`${base}/${id}`).set('Authorization', admin).expect(200);
      assert.deepEqual(
        [one.body.user.email, one.body.user.role, one.body.user.object_types, one.body.user.bio, one.body.user.status],
        [email, 'contributor', ['posts'], 'hi', 'pending'],
      );
      const edited = await request(suite.harness.app)
        .patch(`${base}/${id}`)
        .set('Authorization', admin)
        .send({ role: 'editor', publishing_restrictions: 'draft_only', additional_permissions: ['sort_metafields'] })
        .expect(200);
      assert.equal(edited.body.user.role, 'editor');
      assert.equal(edited.body.user.publishing_restrictions, 'draft_only');
      await request(suite.harness.app).delete(`${base}/${id}`).set('Authorization', admin).expect(200);
      await request(suite.harness.app).get(`${base}/${id}`).set('Authorization', admin).expect(404);
    }
  });

  it('reports every problem of an add or edit body in one 400', async () => {
    const add = await request(suite.harness.app)
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
    const boss = (await request(suite.harness.app).get('/v1/team/users').set('Authorization', admin)).body.users[0]
      .id as string;
    const edit = await request(suite.harness.app)
      .patch(`/v1/team/users/${boss}`)
      .set('Authorization', admin)
      .send({})
      .expect(400);
    assert.match(edit.body.message, /role is required/);
    const last = await request(suite.harness.app)
      .patch(`/v1/team/users/${boss}`)
      .set('Authorization', admin)
      .send({ role: 'editor' })
      .expect(400);
    assert.match(last.body.message, /at least one admin/);
  });

  it('needs an account token with admin access: 401 without, 403 for an editor, the Bucket key is not enough', async () => {
    await request(suite.harness.app).get('/v1/team/users').expect(401);
    const id = await account(suite.harness, 'ed@example.com');
    await request(suite.harness.app)
      .post('/v2/buckets/team/users')
      .set('Authorization', admin)
      .send({ first_name: 'E', last_name: 'D', email: 'ed@example.com', role: 'editor' })
      .expect(200);
    const editor = await tokenOf(suite.harness, 'ed@example.com');
    const res = await request(suite.harness.app).get('/v1/team/users').set('Authorization', editor).expect(403);
    assert.equal(res.body.code, 'forbidden');
    assert.ok(id);
  });

  it('the cosmicjs 4.3.7 client: authenticate, getUser, getBuckets, addUser, getUsers, getUser', async () => {
    const Cosmic = await cosmicV2For(suite.harness);
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
