import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { forgetCosmicV1Token, loadCosmicV1 } from '../support/cosmic-v1.js';
import { cosmicV2For, rejection } from '../support/cosmic-v2.js';
import { account, member, PASSWORD, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { findBucketBySlug } from '../../lib/buckets/buckets.js';
import { BucketSuite } from '../support/bucket-suite.js';

interface V1Bucket {
  bucket: { _id: string; slug: string; read_key: string; write_key: string; role: string };
}

/** The Bucket routes the unchanged clients call: v1 addBucket and deleteBucket, v2 getBucket. */
describe('legacy Bucket routes through the unchanged clients', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let server: http.Server;
  const suite = new BucketSuite('home', async () => {
    await account(suite.harness, 'owner@example.com', 'home');
    await account(suite.harness, 'other@example.com');
    server = http.createServer(suite.harness.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
  });
  after(() => {
    forgetCosmicV1Token();
    server.close();
  });

  it('cosmicjs 3.4.4 addBucket creates a Bucket the caller administers; deleteBucket (by id) removes it', async () => {
    const { port } = server.address() as AddressInfo;
    const Cosmic = loadCosmicV1(`http://127.0.0.1:${String(port)}`);
    try {
      const auth = (await Cosmic().authenticate({ email: 'owner@example.com', password: PASSWORD })) as {
        token: string;
      };
      const api = Cosmic({ token: auth.token });
      const made = (await api.addBucket({ title: 'My New Bucket', slug: 'my-new-bucket' })) as V1Bucket;
      assert.equal(made.bucket.slug, 'my-new-bucket', JSON.stringify(made));
      assert.match(made.bucket._id, /^[0-9a-f]{24}$/);
      assert.equal(made.bucket.role, 'admin');
      const b = Cosmic().bucket({ slug: 'my-new-bucket', read_key: made.bucket.read_key });
      const objects = (await b.getObjects()) as { status: number };
      assert.equal(objects.status, 404, 'the new Bucket answers its read key (empty: 404)');
      const again = (await api.addBucket({ title: 'Again', slug: 'my-new-bucket' })) as { status: number };
      assert.equal(again.status, 400);
      const deleted = (await api.deleteBucket({ id: made.bucket._id })) as { message: string };
      assert.match(deleted.message, /deleted/, JSON.stringify(deleted));
      assert.equal(await findBucketBySlug(suite.harness.db, 'my-new-bucket'), null);
      const gone = (await api.deleteBucket({ id: made.bucket._id })) as { status: number };
      assert.equal(gone.status, 404);
    } finally {
      forgetCosmicV1Token();
    }
  });

  it('v1 deleteBucket: 404 for a Bucket the account is not a user of, 403 for a non-admin, 401 without a token', async () => {
    const home = await findBucketBySlug(suite.harness.db, 'home');
    const id = home?._id.toHexString() ?? '';
    await request(suite.harness.app).delete(`/v1/buckets/${id}`).expect(401);
    const stranger = await tokenOf(suite.harness, 'other@example.com', 'v1');
    const res = await request(suite.harness.app).delete(`/v1/buckets/${id}`).set('Authorization', stranger).expect(404);
    assert.equal(res.body.status, 404);
    await request(suite.harness.app).delete('/v1/buckets/not-an-id').set('Authorization', stranger).expect(404);
    await member(suite.harness, 'home', 'dev@example.com', { role: 'developer' });
    const devToken = await tokenOf(suite.harness, 'dev@example.com', 'v1');
    const refused = await request(suite.harness.app)
      .delete(`/v1/buckets/${id}`)
      .set('Authorization', devToken)
      .expect(403);
    assert.match(refused.body.message, /only an admin/);
    assert.ok(await findBucketBySlug(suite.harness.db, 'home'));
  });

  it('cosmicjs 4.3.7 getBucket answers the Bucket to a member, and to its read key', async () => {
    const Cosmic = await cosmicV2For(suite.harness);
    const auth = await Cosmic().authenticate({ email: 'owner@example.com', password: PASSWORD });
    const api = Cosmic({ token: String(auth.token) });
    try {
      const got = (await api.getBucket({ slug: 'home' })) as { bucket: Record<string, unknown> };
      assert.equal(got.bucket.slug, 'home', JSON.stringify(got));
      assert.match(String(got.bucket.id), /^[0-9a-f]{24}$/);
      assert.equal(got.bucket.role, 'admin');
      assert.equal(typeof got.bucket.created_at, 'string');
      const missing = await rejection(api.getBucket({ slug: 'nowhere' }));
      assert.equal(missing.status, 404);
    } finally {
      forgetCosmicV1Token();
    }
    const keys = await suite.harness.bucket('keyed');
    const byKey = await request(suite.harness.app)
      .get(`/v2/buckets/keyed?read_key=${encodeURIComponent(keys.read_key ?? '')}`)
      .expect(200);
    assert.equal(byKey.body.bucket.slug, 'keyed');
    assert.equal(byKey.body.bucket.role, undefined);
    await request(suite.harness.app).get('/v2/buckets/keyed').expect(401);
    const stranger = await tokenOf(suite.harness, 'other@example.com');
    await request(suite.harness.app).get('/v2/buckets/keyed').set('Authorization', stranger).expect(403);
  });
  it("GET /v2/buckets tells a member its limits in each Bucket: draft_only, and a contributor's Object types", async () => {
    await member(suite.harness, 'home', 'writer@example.com', {
      role: 'contributor',
      object_types: ['posts', 'pages'],
      publishing_restrictions: 'draft_only',
    });
    const listed = async (email: string) => {
      const res = await request(suite.harness.app)
        .get('/v2/buckets')
        .set('Authorization', await tokenOf(suite.harness, email))
        .expect(200);
      return res.body.buckets.find((b: { slug: string }) => b.slug === 'home');
    };
    const writer = await listed('writer@example.com');
    assert.equal(writer.role, 'contributor');
    assert.equal(writer.publishing_restrictions, 'draft_only');
    assert.deepEqual(writer.object_types, ['posts', 'pages']);
    const owner = await listed('owner@example.com');
    assert.equal(owner.role, 'admin');
    assert.equal(owner.publishing_restrictions, null);
    assert.equal('object_types' in owner, false, 'only a contributor is limited to types');
  });
});
