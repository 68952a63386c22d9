import assert from 'node:assert/strict';
import request from 'supertest';
import { account, member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

const SLUG = 'escalate';
const base = `/v3/buckets/${SLUG}`;

describe('accounts: permissions do not reach past what they name', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const ids = { owner: '', manager: '', sorter: '' };
  const tokens = { owner: '', manager: '', sorter: '' };
  const as = (t: string) => ({ Authorization: `Bearer ${t}` });
  const metafields = [
    { type: 'text', title: 'Headline', key: 'headline', value: '' },
    { type: 'number', title: 'Rank', key: 'rank', value: '' },
    { type: 'textarea', title: 'Summary', key: 'summary', value: '' },
  ];

  const suite = new BucketSuite(SLUG, async (_api, context) => {
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await request(suite.harness.app)
      .post(`${base}/object-types`)
      .set(as(String(suite.keys.write_key)))
      .send({ title: 'Posts', metafields })
      .expect(200);
    ids.owner = await account(suite.harness, 'owner@example.com', SLUG);
    ids.manager = await member(suite.harness, SLUG, 'manager@example.com', {
      role: 'editor',
      additional_permissions: ['users'],
    });
    ids.sorter = await member(suite.harness, SLUG, 'sorter@example.com', {
      role: 'editor',
      additional_permissions: ['sort_metafields'],
    });
    for (const who of ['owner', 'manager', 'sorter'] as const)
      tokens[who] = await tokenOf(suite.harness, `${who}@example.com`);
  });

  const roleOf = async (id: string) =>
    (await request(suite.harness.app).get(`/v2/buckets/${SLUG}/users/${id}`).set(as(tokens.owner)).expect(200)).body
      .user.role as string;

  it('the users permission cannot grant admin, change an admin or remove one', async () => {
    const users = `/v2/buckets/${SLUG}/users`;
    const refused = [
      await request(suite.harness.app).patch(`${users}/${ids.manager}`).set(as(tokens.manager)).send({ role: 'admin' }),
      await request(suite.harness.app).patch(`${users}/${ids.owner}`).set(as(tokens.manager)).send({ role: 'editor' }),
      await request(suite.harness.app).delete(`${users}/${ids.owner}`).set(as(tokens.manager)),
      await request(suite.harness.app)
        .post(users)
        .set(as(tokens.manager))
        .send({ first_name: 'A', last_name: 'B', email: 'new-admin@example.com', role: 'admin' }),
    ];
    assert.deepEqual(
      refused.map((r) => [r.status, r.body.code]),
      refused.map(() => [403, 'forbidden']),
    );
    assert.equal(await roleOf(ids.manager), 'editor');
    assert.equal(await roleOf(ids.owner), 'admin');
    // What the permission is for still works: adding and editing non-admin users.
    await request(suite.harness.app)
      .post(users)
      .set(as(tokens.manager))
      .send({ first_name: 'C', last_name: 'D', email: 'writer@example.com', role: 'editor' })
      .expect(200);
    await request(suite.harness.app)
      .patch(`${users}/${ids.sorter}`)
      .set(as(tokens.manager))
      .send({
        role: 'editor',
        additional_permissions: ['sort_metafields'],
      });
    // An admin may promote.
    await request(suite.harness.app)
      .patch(`${users}/${ids.manager}`)
      .set(as(tokens.owner))
      .send({ role: 'admin' })
      .expect(200);
    assert.equal(await roleOf(ids.manager), 'admin');
  });

  it('sort_metafields reorders a type’s Metafields and nothing else', async () => {
    const current = (
      await request(suite.harness.app).get(`${base}/object-types/posts?read_key=${String(suite.keys.read_key)}`)
    ).body.object_type as { metafields: { key: string; title: string }[] };
    const reordered = [...current.metafields].reverse();
    const refused = [
      await request(suite.harness.app).post(`${base}/object-types`).set(as(tokens.sorter)).send({ title: 'Pages' }),
      await request(suite.harness.app).delete(`${base}/object-types/posts`).set(as(tokens.sorter)),
      await request(suite.harness.app)
        .patch(`${base}/object-types/posts`)
        .set(as(tokens.sorter))
        .send({ title: 'Renamed' }),
      await request(suite.harness.app)
        .patch(`${base}/object-types/posts`)
        .set(as(tokens.sorter))
        .send({ metafields: reordered.slice(1) }),
      await request(suite.harness.app)
        .patch(`${base}/object-types/posts`)
        .set(as(tokens.sorter))
        .send({ metafields: reordered.map((m, i) => (i === 0 ? { ...m, title: 'Changed' } : m)) }),
      await request(suite.harness.app)
        .patch(`/v2/buckets/${SLUG}/object-types/posts`)
        .set(as(tokens.sorter))
        .send({ metafields: reordered, title: 'Renamed' }),
      await request(suite.harness.app)
        .put(`/v1/${SLUG}/edit-object-type`)
        .set(as(tokens.sorter))
        .send({ slug: 'posts', title: 'X' }),
      await request(suite.harness.app)
        .post(`/v1/${SLUG}/add-object-type`)
        .set(as(tokens.sorter))
        .send({ title: 'Pages' }),
    ];
    assert.deepEqual(
      refused.map((r) => [r.status, r.body.code]),
      refused.map(() => [403, 'forbidden']),
    );
    const res = await request(suite.harness.app)
      .patch(`${base}/object-types/posts`)
      .set(as(tokens.sorter))
      .send({ metafields: reordered })
      .expect(200);
    assert.deepEqual(
      res.body.object_type.metafields.map((m: { key: string }) => m.key),
      ['summary', 'rank', 'headline'],
    );
    assert.equal(res.body.object_type.title, 'Posts');
  });
});
