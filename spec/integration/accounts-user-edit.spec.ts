import assert from 'node:assert/strict';
import request from 'supertest';
import { account, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('accounts: a user edit changes only what it sends; contributors name existing types', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let admin: string;
  const base = '/v2/buckets/crew/users';
  const suite = new BucketSuite('crew', async () => {
    await suite.api.post('/object-types', { title: 'Posts' }).expect(200);
    await suite.api.post('/object-types', { title: 'Pages' }).expect(200);
    await account(suite.harness, 'chief@example.com', 'crew');
    admin = await tokenOf(suite.harness, 'chief@example.com');
  });

  const add = (body: Record<string, unknown>) =>
    request(suite.harness.app)
      .post(base)
      .set('Authorization', admin)
      .send({ first_name: 'A', last_name: 'B', ...body });
  const edit = (id: string, body: Record<string, unknown>) =>
    request(suite.harness.app).patch(`${base}/${id}`).set('Authorization', admin).send(body);

  it('PATCH {role} keeps publishing_restrictions, additional_permissions and object_types', async () => {
    const added = await add({
      email: 'keep@example.com',
      role: 'developer',
      publishing_restrictions: 'draft_only',
      additional_permissions: ['sort_metafields'],
    }).expect(200);
    const id = String(added.body.user.id);
    const edited = await edit(id, { role: 'editor' }).expect(200);
    const user = edited.body.user;
    assert.deepEqual(
      [user.role, user.publishing_restrictions, user.additional_permissions],
      ['editor', 'draft_only', ['sort_metafields']],
    );
    const read = await request(suite.harness.app).get(`${base}/${id}`).set('Authorization', admin).expect(200);
    assert.deepEqual(read.body.user, user);
    // A sent null clears the restriction, and a sent empty list clears the permissions.
    const cleared = await edit(id, { role: 'editor', publishing_restrictions: null, additional_permissions: [] });
    assert.deepEqual([cleared.body.user.publishing_restrictions, cleared.body.user.additional_permissions], [null, []]);
  });

  it('a contributor keeps its object_types when only its role or restriction is sent', async () => {
    const added = await add({ email: 'types@example.com', role: 'contributor', object_types: ['posts'] }).expect(200);
    const id = String(added.body.user.id);
    const edited = await edit(id, { role: 'contributor', publishing_restrictions: 'draft_only' }).expect(200);
    assert.deepEqual(edited.body.user.object_types, ['posts']);
  });

  it('refuses object_types naming types the Bucket does not have, on add and edit, naming them', async () => {
    const bad = await add({ email: 'ghost@example.com', role: 'contributor', object_types: ['posts', 'ghosts', 'x'] });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.status, 400);
    assert.match(bad.body.message, /ghosts/);
    assert.match(bad.body.message, /"x"|'x'|\bx\b/);
    assert.doesNotMatch(bad.body.message, /posts/);
    const added = await add({ email: 'real@example.com', role: 'contributor', object_types: 'pages' }).expect(200);
    const id = String(added.body.user.id);
    const editBad = await edit(id, { role: 'contributor', object_types: ['nope'] }).expect(400);
    assert.match(editBad.body.message, /nope/);
    const kept = await request(suite.harness.app).get(`${base}/${id}`).set('Authorization', admin).expect(200);
    assert.deepEqual(kept.body.user.object_types, ['pages']);
  });

  it('a user becoming a contributor needs object_types, sent or kept', async () => {
    const added = await add({ email: 'become@example.com', role: 'editor' }).expect(200);
    const id = String(added.body.user.id);
    const res = await edit(id, { role: 'contributor' }).expect(400);
    assert.match(res.body.message, /object_types is required/);
    await edit(id, { role: 'contributor', object_types: ['posts'] }).expect(200);
  });
});
