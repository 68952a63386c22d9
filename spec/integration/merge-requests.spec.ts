import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import request from 'supertest';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';

interface ApiMr {
  id: string;
  title: string;
  status: string;
  objects: { object_id: string; revision_id: string; recorded_at: string; published_at: string | null }[];
  merged_at: string | null;
  closed_at: string | null;
}
interface ErrorBody {
  status: number;
  code: string;
  message: string;
}

describe('merge requests (beta): record drafts, merge publishes them through the write path, close discards', () => {
  let otherApi: ReturnType<typeof bucketClient>;
  const suite = new BucketSuite('mr', async () => {
    otherApi = bucketClient(suite.harness.app, await suite.harness.bucket('mr-other'));
    const posts = { title: 'Posts', metafields: [{ type: 'text', title: 'Body', key: 'body', value: '' }] };
    await suite.api.post('/object-types', posts).expect(200);
    await otherApi.post('/object-types', posts).expect(200);
  });

  const base = () => `/v3/buckets/${suite.keys.slug}/merge-requests`;
  const withWrite = (t: request.Test) => t.set('Authorization', `Bearer ${suite.keys.write_key ?? ''}`);
  const getMr = (path = '') => withWrite(request(suite.harness.app).get(base() + path));
  const postMr = (path: string, body: object = {}) =>
    withWrite(request(suite.harness.app).post(base() + path)).send(body);
  const mrOf = (res: request.Response) => (res.body as { merge_request: ApiMr }).merge_request;
  const errOf = (res: request.Response) => res.body as ErrorBody;

  /** A published Object with a later draft saved over it: live shows `live`, the draft `draft`. */
  async function draftedPost(live: string, draft: string, client = suite.api): Promise<string> {
    const made = await client.post('/objects', { title: live, type: 'posts', metadata: { body: live } }).expect(200);
    const id = String(made.body.object.id);
    await client.post(`/objects/${id}/revisions`, { title: draft, metadata: { body: draft } }).expect(200);
    return id;
  }
  const liveTitle = async (id: string) => String((await suite.api.get(`/objects/${id}`).expect(200)).body.object.title);

  it('creates a merge request recording the latest draft revision of each Object; lists and gets it', async () => {
    const a = await draftedPost('A live', 'A draft');
    const b = await draftedPost('B live', 'B draft');
    const revs = await suite.api.get(`/objects/${a}/revisions`).expect(200);
    const latestRevision = String(revs.body.revisions[0].id);
    const created = mrOf(await postMr('', { title: 'Spring launch', object_ids: [b, a] }).expect(200));
    assert.equal(created.status, 'open');
    assert.equal(created.title, 'Spring launch');
    assert.deepEqual(
      created.objects.map((o) => o.object_id),
      [b, a],
      'in the order listed',
    );
    const [, second] = created.objects;
    assert.equal(second?.revision_id, latestRevision);
    assert.equal(second.published_at, null);
    const one = mrOf(await getMr(`/${created.id}`).expect(200));
    assert.deepEqual(one, created);
    const list = await getMr('?limit=1').expect(200);
    assert.equal(list.body.total >= 1, true);
    assert.equal(list.body.merge_requests[0].id, created.id, 'newest first');
    assert.equal(await liveTitle(a), 'A live', 'recording publishes nothing');
  });

  it('merge publishes every recorded draft: live view, a publish revision and one object.published event each', async () => {
    const a = await draftedPost('M1 live', 'M1 draft');
    const b = await draftedPost('M2 live', 'M2 draft');
    const hook = await suite.api
      .post('/webhooks', { endpoint: 'https://hooks.example.com/in', events: ['object.published'] })
      .expect(200);
    const mr = mrOf(await postMr('', { title: 'Both', object_ids: [a, b] }).expect(200));
    // Earlier requests' put-off clears first, or the next writer of their Objects emits their events again.
    await suite.harness.settled();
    const from = suite.harness.emitted.length;
    const merged = mrOf(await postMr(`/${mr.id}/merge`).expect(200));
    assert.equal(merged.status, 'merged');
    assert.ok(merged.merged_at);
    assert.ok(merged.objects.every((o) => o.published_at !== null));
    const events = suite.harness.emitted.slice(from);
    assert.deepEqual(
      events.map((e) => [e.type, e.subjectId]),
      [
        ['object.published', a],
        ['object.published', b],
      ],
    );
    assert.equal((events[0]?.data as { title: string }).title, 'M1 draft');
    assert.equal(await liveTitle(a), 'M1 draft');
    assert.equal(await liveTitle(b), 'M2 draft');
    const live = await suite.api.get(`/objects/${b}`).expect(200);
    assert.equal(live.body.object.metadata.body, 'M2 draft');
    const revs = await suite.api.get(`/objects/${a}/revisions`).expect(200);
    assert.equal(revs.body.revisions[0].reason, 'publish');
    assert.equal(revs.body.revisions[0].title, 'M1 draft');
    const deliveries = await withWrite(
      request(suite.harness.app).get(
        `/v3/buckets/${suite.keys.slug}/webhooks/${String(hook.body.webhook.id)}/deliveries`,
      ),
    ).expect(200);
    assert.equal(deliveries.body.total, 2, 'the webhook outbox got both publishes');
  });

  it('merging twice, or merging or closing a closed request, is a 409 merge_request_closed', async () => {
    const a = await draftedPost('T live', 'T draft');
    const mr = mrOf(await postMr('', { title: 'Twice', object_ids: [a] }).expect(200));
    await postMr(`/${mr.id}/merge`).expect(200);
    await suite.harness.settled();
    const from = suite.harness.emitted.length;
    const again = errOf(await postMr(`/${mr.id}/merge`).expect(409));
    assert.equal(again.code, 'merge_request_closed');
    assert.match(again.message, /already merged/);
    assert.equal(suite.harness.emitted.length, from, 'nothing published again');
    assert.equal(errOf(await postMr(`/${mr.id}/close`).expect(409)).code, 'merge_request_closed');

    const c = await draftedPost('C live', 'C draft');
    const toClose = mrOf(await postMr('', { title: 'Discard', object_ids: [c] }).expect(200));
    const closed = mrOf(await postMr(`/${toClose.id}/close`).expect(200));
    assert.equal(closed.status, 'closed');
    assert.ok(closed.closed_at);
    const refused = errOf(await postMr(`/${toClose.id}/merge`).expect(409));
    assert.equal(refused.code, 'merge_request_closed');
    assert.match(refused.message, /already closed/);
    assert.equal(await liveTitle(c), 'C live', 'a closed request publishes nothing');
    assert.equal(errOf(await postMr(`/${toClose.id}/close`).expect(409)).code, 'merge_request_closed');
  });

  it('an Object changed or deleted after it was recorded makes the merge a 409 merge_conflict, publishing nothing', async () => {
    const a = await draftedPost('K1 live', 'K1 draft');
    const b = await draftedPost('K2 live', 'K2 draft');
    const mr = mrOf(await postMr('', { title: 'Conflict', object_ids: [a, b] }).expect(200));
    await suite.api.post(`/objects/${b}/revisions`, { title: 'K2 newer draft' }).expect(200);
    await suite.harness.settled();
    const from = suite.harness.emitted.length;
    const err = errOf(await postMr(`/${mr.id}/merge`).expect(409));
    assert.equal(err.code, 'merge_conflict');
    assert.match(err.message, new RegExp(`'${b}' \\(changed\\)`));
    assert.equal(suite.harness.emitted.length, from);
    assert.equal(await liveTitle(a), 'K1 live', 'checked before anything was published');
    assert.equal(mrOf(await getMr(`/${mr.id}`).expect(200)).status, 'open', 'still open: it may be closed');
    await suite.api.delete(`/objects/${b}`).expect(200);
    assert.match(errOf(await postMr(`/${mr.id}/merge`).expect(409)).message, /\(deleted\)/);
    await postMr(`/${mr.id}/close`).expect(200);
  });

  it('a draft published by hand after recording counts as merged', async () => {
    const a = await draftedPost('P live', 'P draft');
    const mr = mrOf(await postMr('', { title: 'By hand', object_ids: [a] }).expect(200));
    await suite.api.patch(`/objects/${a}`, { status: 'published' }).expect(200);
    await suite.harness.settled();
    const from = suite.harness.emitted.length;
    const merged = mrOf(await postMr(`/${mr.id}/merge`).expect(200));
    assert.equal(merged.status, 'merged');
    assert.equal(suite.harness.emitted.length, from, 'not published a second time');

    const c = await draftedPost('Q live', 'Q draft');
    const other = mrOf(await postMr('', { title: 'Changed on publish', object_ids: [c] }).expect(200));
    await suite.api.patch(`/objects/${c}`, { status: 'published', title: 'Q other' }).expect(200);
    assert.equal(errOf(await postMr(`/${other.id}/merge`).expect(409)).code, 'merge_conflict');
  });

  it('two merges at once publish each Object once: the other answers 409', async () => {
    const a = await draftedPost('R1 live', 'R1 draft');
    const b = await draftedPost('R2 live', 'R2 draft');
    const mr = mrOf(await postMr('', { title: 'Race', object_ids: [a, b] }).expect(200));
    await suite.harness.settled();
    const from = suite.harness.emitted.length;
    const answers = await Promise.all([postMr(`/${mr.id}/merge`), postMr(`/${mr.id}/merge`)]);
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409]);
    assert.equal(answers.find((r) => r.status === 409)?.body.code, 'merge_request_closed');
    assert.deepEqual(
      suite.harness.emitted.slice(from).map((e) => e.subjectId),
      [a, b],
    );
  });

  it('a merge that crashed midway is taken over once its claim is stale, publishing only what is left', async () => {
    const a = await draftedPost('X1 live', 'X1 draft');
    const b = await draftedPost('X2 live', 'X2 draft');
    const mr = mrOf(await postMr('', { title: 'Crashed', object_ids: [a, b] }).expect(200));
    // As a merge leaves it when it dies after publishing the first Object, before noting it.
    await suite.api.patch(`/objects/${a}`, { status: 'published' }).expect(200);
    const claim = { status: 'merging', merging_since: new Date() };
    await suite.harness.db.collection('merge_requests').updateOne({ _id: new ObjectId(mr.id) }, { $set: claim });
    assert.equal(errOf(await postMr(`/${mr.id}/merge`).expect(409)).code, 'merge_request_closed');
    assert.match(errOf(await postMr(`/${mr.id}/close`).expect(409)).message, /being merged right now/);
    const stale = new Date(Date.now() - 2 * 60_000);
    await suite.harness.db
      .collection('merge_requests')
      .updateOne({ _id: new ObjectId(mr.id) }, { $set: { merging_since: stale } });
    await suite.harness.settled();
    const from = suite.harness.emitted.length;
    const merged = mrOf(await postMr(`/${mr.id}/merge`).expect(200));
    assert.equal(merged.status, 'merged');
    assert.deepEqual(
      suite.harness.emitted.slice(from).map((e) => [e.type, e.subjectId]),
      [['object.published', b]],
    );
    assert.equal(await liveTitle(b), 'X2 draft');
  });

  it('refuses unknown ids, Objects of another Bucket and Objects without a draft in one 400', async () => {
    const foreign = await draftedPost('F live', 'F draft', otherApi);
    const made = await suite.api.post('/objects', { title: 'No draft', type: 'posts' }).expect(200);
    const published = String(made.body.object.id);
    const missing = '0123456789abcdef01234567';
    const err = errOf(await postMr('', { title: 'Bad', object_ids: [foreign, published, missing] }).expect(400));
    assert.equal(err.code, 'invalid_body');
    assert.match(err.message, new RegExp(`object_ids\\[0\\]: no Object with id '${foreign}' in bucket 'mr'`));
    assert.match(err.message, new RegExp(`object_ids\\[1\\]: Object '${published}' has no unpublished draft`));
    assert.match(err.message, new RegExp(`object_ids\\[2\\]: no Object with id '${missing}'`));
    for (const body of [
      { title: 'x', object_ids: [] },
      { title: 'x', object_ids: ['nope'] },
      { title: '', object_ids: [published] },
      { object_ids: [published] },
      { title: 'x', object_ids: [published], extra: 1 },
      { title: 'x', object_ids: [foreign.toUpperCase(), foreign] },
    ]) {
      assert.equal(errOf(await postMr('', body).expect(400)).code, 'invalid_body', JSON.stringify(body));
    }
  });

  it('bad or unknown ids answer 404, another Bucket cannot see a request, and every route takes the write key', async () => {
    for (const id of ['nope', '0123456789abcdef01234567']) {
      assert.equal(
        errOf(await getMr(`/${id}`).expect(404)).message,
        `Merge request with id '${id}' not found in bucket 'mr'`,
      );
      await postMr(`/${id}/merge`).expect(404);
      await postMr(`/${id}/close`).expect(404);
    }
    const a = await draftedPost('S live', 'S draft');
    const mr = mrOf(await postMr('', { title: 'Mine', object_ids: [a] }).expect(200));
    await otherApi.post(`/merge-requests/${mr.id}/merge`, {}).expect(404);
    const unkeyed = await request(suite.harness.app).get(`${base()}/${mr.id}`).expect(401);
    assert.equal(errOf(unkeyed).code, 'unauthorized');
    await request(suite.harness.app)
      .get(`${base()}/${mr.id}?read_key=${suite.keys.read_key ?? ''}`)
      .expect(401);
    await request(suite.harness.app)
      .post(`${base()}/${mr.id}/merge?read_key=${suite.keys.read_key ?? ''}`)
      .expect(401);
    assert.equal(await liveTitle(a), 'S live');
  });
});
