import assert from 'node:assert/strict';
import request from 'supertest';
import { BucketSuite } from '../support/bucket-suite.js';
import { account, member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';

const SLUG = 'rev-authors';
const base = `/v3/buckets/${SLUG}`;

describe('revision authors', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const ids = { admin: '', editor: '' };
  const tokens = { admin: '', editor: '' };
  const suite = new BucketSuite(SLUG, async (api) => {
    await api
      .post('/object-types', { title: 'Posts', metafields: [{ type: 'text', title: 'Body', key: 'body', value: '' }] })
      .expect(200);
    ids.admin = await account(suite.harness, 'admin@authors.test', SLUG);
    ids.editor = await member(suite.harness, SLUG, 'editor@authors.test', { role: 'editor' });
    tokens.admin = await tokenOf(suite.harness, 'admin@authors.test');
    tokens.editor = await tokenOf(suite.harness, 'editor@authors.test');
  });
  const as = (token: string, method: 'post' | 'patch', path: string, body: object) =>
    request(suite.harness.app)[method](`${base}${path}`).set('Authorization', `Bearer ${token}`).send(body);
  const read = (path: string) =>
    request(suite.harness.app)
      .get(`${base}${path}`)
      .query({ read_key: String(suite.keys.read_key) });

  it('names the account that made each version, in every revision read', async () => {
    const made = await as(tokens.editor, 'post', '/objects', { title: 'One', type: 'posts', status: 'draft' }).expect(
      200,
    );
    const id = made.body.object.id as string;
    await as(tokens.admin, 'patch', `/objects/${id}`, { title: 'Two' }).expect(200);
    const draft = await as(tokens.editor, 'post', `/objects/${id}/revisions`, { title: 'Three' }).expect(200);
    // The POST's own answer names its author too.
    assert.equal(draft.body.revision.created_by, ids.editor);

    const list = await read(`/objects/${id}/revisions`).query({ sort: 'created_at' }).expect(200);
    assert.deepEqual(
      list.body.revisions.map((r: { title: string; created_by: string | null }) => [r.title, r.created_by]),
      [
        ['One', ids.editor],
        ['Two', ids.admin],
        ['Three', ids.editor],
      ],
    );
    const second = list.body.revisions[1].id as string;
    const one = await read(`/objects/${id}/revisions/${second}`).expect(200);
    assert.equal(one.body.revision.created_by, ids.admin);
    assert.ok(!Number.isNaN(Date.parse(one.body.revision.created_at)));
    // It is a field like any other: props picks it.
    const picked = await read(`/objects/${id}/revisions`).query({ props: 'id,created_by' }).expect(200);
    assert.deepEqual(Object.keys(picked.body.revisions[0]).sort(), ['created_by', 'id']);
  });

  it('names no account for an Object only a Bucket key has written', async () => {
    const made = await suite.api.post('/objects', { title: 'Keyed', type: 'posts' }).expect(200);
    const id = made.body.object.id as string;
    await suite.api.patch(`/objects/${id}`, { metadata: { body: 'changed' } }).expect(200);
    const list = await read(`/objects/${id}/revisions`).expect(200);
    assert.deepEqual(
      list.body.revisions.map((r: { created_by: string | null }) => r.created_by),
      [null, null],
    );
  });
});
