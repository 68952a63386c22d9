import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import request from 'supertest';
import { projectRoot } from '../../lib/project-root.js';
import { createApp } from '../../lib/app.js';
import { requestCountsCollection } from '../../lib/limits/monthly-requests.js';
import { monthOf } from '../../lib/config/plan.js';
import { usageCollection } from '../../lib/limits/usage-counters.js';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { setPlan } from '../../lib/buckets/plans.js';
import { validatorFor } from '../../lib/validation/ajv.js';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { storedFileCounts, upload } from '../support/media.js';
import { testEngine } from '../support/test-engine.js';
import { bucketsCollection, objectsCollection } from '../../lib/db/collections.js';
import { writeAlone } from '../../lib/db/write-batch.js';
import { deleteClaim, finishCarriedDelete } from '../../lib/objects/write/delete-write.js';

const POSTS = { title: 'Posts', slug: 'posts', metafields: [] };
const HOOK = { endpoint: 'https://hooks.example.com/in', events: ['object.created'] };

/** GET /usage with the write key, as the route requires. */
function usageRequest(h: Harness, keys: IssuedKeys): request.Test {
  return request(h.app)
    .get(`/v3/buckets/${keys.slug}/usage`)
    .set('Authorization', `Bearer ${keys.write_key ?? ''}`);
}

function upgradeMessage(slug: string, allowed: string, field: string): RegExp {
  return new RegExp(
    `^Bucket '${slug}' must be upgraded before further use: its plan allows ${allowed} \\(${field}\\) and .*; upgrade the plan$`,
  );
}

describe('plans and quotas (402)', () => {
  let h: Harness;
  before(async () => {
    h = await freshHarness();
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  /** A Bucket with the Object type `posts`, then the plan given. */
  async function bucketWithPlan(slug: string, plan: Parameters<typeof setPlan>[2]) {
    const keys = await h.bucket(slug);
    const api = bucketClient(h.app, keys);
    await api.post('/object-types', POSTS).expect(200);
    await setPlan(h.db, slug, plan);
    return { keys, api };
  }

  async function usage(keys: IssuedKeys) {
    return (await usageRequest(h, keys).expect(200)).body.usage;
  }

  it('refuses an Object past max_objects with 402 naming the limit, and takes one again after a delete', async () => {
    const { keys, api } = await bucketWithPlan('objects', { max_objects: 2 });
    const first = (await api.post('/objects', { title: 'One', type: 'posts' }).expect(200)).body.object.id;
    await api.post('/objects', { title: 'Two', type: 'posts' }).expect(200);
    const refused = await api.post('/objects', { title: 'Three', type: 'posts' }).expect(402);
    assert.equal(refused.body.status, 402);
    assert.equal(refused.body.code, 'plan_limit_reached');
    assert.match(refused.body.message, upgradeMessage('objects', '2 Objects', 'max_objects'));
    assert.match(refused.body.message, /the bucket has 2/);
    assert.deepEqual((await usage(keys)).objects, { used: 2, limit: 2 });
    await api.delete(`/objects/${first}`).expect(200);
    assert.deepEqual((await usage(keys)).objects, { used: 1, limit: 2 });
    await api.post('/objects', { title: 'Three', type: 'posts' }).expect(200);
  });

  it('applies the same limit to batch adds, each operation alone', async () => {
    const { api } = await bucketWithPlan('batch', { max_objects: 1 });
    const res = await api
      .post('/objects/batch', {
        operations: [
          { method: 'add', object: { title: 'A', type: 'posts' } },
          { method: 'add', object: { title: 'B', type: 'posts' } },
        ],
      })
      .expect(200);
    assert.deepEqual(
      res.body.operations.map((o: { status: number; code?: string }) => [o.status, o.code]),
      [
        [200, undefined],
        [402, 'plan_limit_reached'],
      ],
    );
    assert.match(res.body.operations[1].message, /^operations\[1\] \(add\): Bucket 'batch' must be upgraded/);
  });

  it('lets exactly one of many concurrent creates take the last slot', async () => {
    const { keys, api } = await bucketWithPlan('race', { max_objects: 3 });
    await api.post('/objects', { title: 'A', type: 'posts' }).expect(200);
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(200);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => api.post('/objects', { title: `Racer ${i}`, type: 'posts' })),
    );
    assert.deepEqual(
      answers.map((r) => r.status).sort(),
      [200, ...Array<number>(11).fill(402)],
      answers.map((r) => `${r.status} ${r.body.message}`).join('\n'),
    );
    const bucketId = (await h.db.collection('buckets').findOne({ slug: 'race' }))?._id;
    assert.equal(await h.db.collection('objects').countDocuments({ bucket_id: bucketId }), 3);
    assert.deepEqual((await usage(keys)).objects, { used: 3, limit: 3 });
  });

  it('gives the slot back when the write fails after taking it', async () => {
    const { keys, api } = await bucketWithPlan('giveback', { max_objects: 2 });
    await api.post('/objects', { title: 'A', slug: 'same', type: 'posts' }).expect(200);
    // The slug is checked by the insert itself, after the slot was taken.
    const taken = await api.post('/objects', { title: 'B', slug: 'same', type: 'posts' }).expect(400);
    assert.equal(taken.body.code, 'slug_taken');
    assert.deepEqual((await usage(keys)).objects, { used: 1, limit: 2 });
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(200);
  });

  it('counts an Object off once when its delete is finished twice (the delete and a reader of its claim)', async () => {
    const { keys, api } = await bucketWithPlan('twice', { max_objects: 5 });
    const id = String((await api.post('/objects', { title: 'A', type: 'posts' }).expect(200)).body.object.id);
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(200);
    const bucket = await bucketsCollection(h.db).findOne({ slug: 'twice' });
    assert.ok(bucket);
    const doc = await objectsCollection(h.db).findOne({ slug: 'a', bucket_id: bucket._id });
    assert.ok(doc);
    const { claim, claimed } = deleteClaim(h.db, doc, false);
    await writeAlone(claim);
    await Promise.all([finishCarriedDelete(h.writes, claimed), finishCarriedDelete(h.writes, claimed)]);
    await finishCarriedDelete(h.writes, claimed);
    await api.get(`/objects/${id}?status=any`).expect(404);
    assert.deepEqual((await usage(keys)).objects, { used: 1, limit: 5 });
  });

  it('limits Object types, and a type delete frees its slot and its Objects', async () => {
    const { keys, api } = await bucketWithPlan('types', { max_object_types: 1 });
    await api.post('/objects', { title: 'A', type: 'posts' }).expect(200);
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(200);
    const refused = await api.post('/object-types', { title: 'Pages', metafields: [] }).expect(402);
    assert.match(refused.body.message, upgradeMessage('types', '1 Object types', 'max_object_types'));
    assert.deepEqual((await usage(keys)).objects.used, 2);
    await api.delete('/object-types/posts').expect(200);
    const after = await usage(keys);
    assert.deepEqual([after.object_types.used, after.objects.used], [0, 0]);
    await api.post('/object-types', { title: 'Pages', metafields: [] }).expect(200);
  });

  it('limits webhooks', async () => {
    const { keys, api } = await bucketWithPlan('hooks', { max_webhooks: 1 });
    const hook = (await api.post('/webhooks', HOOK).expect(200)).body.webhook.id;
    const refused = await api.post('/webhooks', HOOK).expect(402);
    assert.match(refused.body.message, upgradeMessage('hooks', '1 webhooks', 'max_webhooks'));
    await api.delete(`/webhooks/${hook}`).expect(200);
    assert.deepEqual((await usage(keys)).webhooks, { used: 0, limit: 1 });
    await api.post('/webhooks', HOOK).expect(200);
  });

  it('limits media bytes on both upload addresses, and removes the refused file', async () => {
    const { keys } = await bucketWithPlan('media', { max_media_bytes: 10 });
    const before = await storedFileCounts(h.db);
    const six = Buffer.from('123456');
    const id = (await upload(h.app, keys, six, { filename: 'a.bin' }).expect(200)).body.media.id;
    const refused = await upload(h.app, keys, six, { filename: 'b.bin' }).expect(402);
    assert.match(refused.body.message, upgradeMessage('media', '10 bytes of media', 'max_media_bytes'));
    assert.match(refused.body.message, /the bucket has 6, and this write adds 6/);
    const legacy = await request(h.app)
      .post('/v1/media/media')
      .attach('media', six, { filename: 'c.bin', contentType: 'application/octet-stream' })
      .field('write_key', keys.write_key ?? '')
      .expect(402);
    assert.equal(legacy.body.code, 'plan_limit_reached');
    assert.deepEqual((await usage(keys)).media_bytes, { used: 6, limit: 10 });
    await bucketClient(h.app, keys).delete(`/media/${id}`).expect(200);
    await upload(h.app, keys, Buffer.from('0123456789'), { filename: 'd.bin' }).expect(200);
    assert.deepEqual((await usage(keys)).media_bytes, { used: 10, limit: 10 });
    // The refused uploads' bytes went with them (the remover runs in the background).
    for (let i = 0; i < 100 && (await storedFileCounts(h.db)).files > before.files + 1; i++)
      await new Promise((r) => setTimeout(r, 20));
    assert.equal((await storedFileCounts(h.db)).files, before.files + 1);
  });

  it('answers 402 on every Bucket route once the requests of the month are used, until the plan is raised', async () => {
    // Creating the type was the first request of the month.
    const { keys, api } = await bucketWithPlan('monthly', { max_requests_per_month: 5 });
    await api.get('/object-types').expect(200);
    await api.post('/objects', { title: 'A', type: 'posts' }).expect(200);
    await api.get('/objects').expect(200);
    await usageRequest(h, keys).expect(200);
    for (const res of [
      await api.get('/objects'),
      await api.post('/objects', { title: 'B', type: 'posts' }),
      await usageRequest(h, keys),
      await request(h.app).get('/v3/buckets/monthly/objects?read_key=wrong'),
    ]) {
      assert.equal(res.status, 402, JSON.stringify(res.body));
      assert.equal(res.body.code, 'plan_limit_reached');
      assert.match(res.body.message, upgradeMessage('monthly', '5 requests per month', 'max_requests_per_month'));
    }
    await request(h.app).get('/v3/status').expect(200);
    await setPlan(h.db, 'monthly', { max_requests_per_month: 100 });
    const shown = await usage(keys);
    // The five served and this one: refused requests are not counted.
    assert.deepEqual(shown.requests_per_month, { used: 6, limit: 100 });
    assert.match(shown.month, /^\d{4}-\d{2}$/);
  });

  it("shares the month's count between apps on one database once each has added its own (about a second)", async () => {
    const { keys, api } = await bucketWithPlan('monthly-shared', { max_requests_per_month: 4 });
    await api.get('/object-types').expect(200);
    await api.get('/object-types').expect(200);
    // The first app adds its three requests within a second; a second app then reads the total.
    await new Promise((r) => setTimeout(r, 1300));
    const other = bucketClient(createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m) }), keys);
    await other.get('/object-types').expect(200);
    assert.equal((await other.get('/object-types')).status, 402);
    await new Promise((r) => setTimeout(r, 1300));
    const counted = await requestCountsCollection(h.db)
      .find({ month: monthOf(new Date()) })
      .toArray();
    const bucketId = (await h.db.collection('buckets').findOne({ slug: keys.slug }))?._id;
    assert.deepEqual(
      counted.filter((c) => c.bucket_id.equals(bucketId)).map((c) => c.requests),
      [4],
    );
  });

  it('shows usage against the plan to the write key only, in the documented shape', async () => {
    const { keys, api } = await bucketWithPlan('usage', { max_objects: 10, max_webhooks: null });
    await api.post('/objects', { title: 'A', type: 'posts' }).expect(200);
    await request(h.app).get(`/v3/buckets/usage/usage?read_key=${keys.read_key}`).expect(401);
    // Requests without a key of the Bucket are refused and not counted: strangers cannot use up its month.
    for (let i = 0; i < 3; i++) await request(h.app).get('/v3/buckets/usage/objects?read_key=wrong').expect(401);
    const res = await usageRequest(h, keys).expect(200);
    assert.equal(res.headers['cache-control'], 'no-store');
    const validate = validatorFor('BucketUsage');
    assert.equal(validate(res.body), true, JSON.stringify(validate.errors));
    const { month: _month, ...lines } = res.body.usage;
    assert.deepEqual(lines, {
      objects: { used: 1, limit: 10 },
      media_bytes: { used: 0, limit: null },
      object_types: { used: 1, limit: null },
      webhooks: { used: 0, limit: null },
      requests_per_month: { used: 4, limit: null },
    });
  });

  it('counts what a Bucket holds when its counters are missing (a Bucket from before plans)', async () => {
    const { keys, api } = await bucketWithPlan('older', { max_objects: 3 });
    await api.post('/objects', { title: 'A', type: 'posts' }).expect(200);
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(200);
    await upload(h.app, keys, Buffer.from('abc'), { filename: 'x.bin' }).expect(200);
    await usageCollection(h.db).deleteMany({});
    await api.post('/objects', { title: 'C', type: 'posts' }).expect(200);
    await api.post('/objects', { title: 'D', type: 'posts' }).expect(402);
    const shown = await usage(keys);
    assert.deepEqual(
      [shown.objects.used, shown.object_types.used, shown.media_bytes.used],
      [3, 1, 3],
      JSON.stringify(shown),
    );
  });
});

describe('bucketctl set-plan', () => {
  const run = (h: Harness, ...args: string[]) =>
    promisify(execFile)(process.execPath, [path.join(projectRoot, 'dist', 'bin', 'bucketctl.js'), ...args], {
      env: { ...process.env, MONGODB_URI: testEngine().uri, DB_NAME: h.db.databaseName, PLAN_MAX_WEBHOOKS: '4' },
    });

  it('sets, unsets and reports limits, and the next request obeys them', async function () {
    // Sized for the work on a busy 2-core machine (many requests or child processes), not for speed.
    this.timeout(180_000);
    const h = await freshHarness();
    const keys = await h.bucket('cli');
    const api = bucketClient(h.app, keys);
    await api.post('/object-types', POSTS).expect(200);
    const out = await run(h, 'set-plan', 'cli', '--max-objects', '1', '--max-media-bytes', 'unlimited');
    assert.deepEqual(JSON.parse(out.stdout), {
      slug: 'cli',
      plan: { max_objects: 1, max_media_bytes: null },
      effective: {
        max_objects: 1,
        max_media_bytes: null,
        max_object_types: null,
        max_webhooks: 4,
        max_requests_per_month: null,
      },
    });
    await api.post('/objects', { title: 'A', type: 'posts' }).expect(200);
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(402);
    const back = await run(h, 'set-plan', 'cli', '--max-objects', 'default');
    assert.deepEqual(JSON.parse(back.stdout).plan, { max_media_bytes: null });
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(200);
    await assert.rejects(
      run(h, 'set-plan', 'cli', '--max-objects', 'lots'),
      (err: { code: number; stderr: string }) => {
        assert.equal(err.code, 2);
        assert.match(err.stderr, /--max-objects takes a non-negative integer, "unlimited" or "default", got "lots"/);
        return true;
      },
    );
    await assert.rejects(run(h, 'set-plan', 'nobody', '--max-objects', '1'), /Bucket "nobody" does not exist/);
  });
});

describe('plan defaults from the environment', () => {
  const suite = new BucketSuite('defaults', undefined, { PLAN_MAX_OBJECTS: '1', PLAN_MAX_OBJECT_TYPES: '0' });

  it('applies PLAN_MAX_* to Buckets without their own setting; a Bucket setting overrides them', async () => {
    const { harness: h, keys, api } = suite;
    const none = await api.post('/object-types', POSTS).expect(402);
    assert.match(none.body.message, /its plan allows 0 Object types \(max_object_types\)/);
    await setPlan(h.db, 'defaults', { max_object_types: null });
    await api.post('/object-types', POSTS).expect(200);
    await api.post('/objects', { title: 'A', type: 'posts' }).expect(200);
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(402);
    await setPlan(h.db, 'defaults', { max_objects: 5 });
    await api.post('/objects', { title: 'B', type: 'posts' }).expect(200);
    await setPlan(h.db, 'defaults', { max_objects: 'default' });
    const shown = (await usageRequest(h, keys).expect(200)).body.usage;
    assert.deepEqual(
      [shown.objects, shown.object_types],
      [
        { used: 2, limit: 1 },
        { used: 1, limit: null },
      ],
    );
  });
});
