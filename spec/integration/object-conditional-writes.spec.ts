import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';

interface Conflict {
  status: number;
  code: string;
  message: string;
  current: { version: string; modified_at: string; modified_by: string | null };
}

/**
 * Writes that name the version they were based on (If-Match): the one a stale client would
 * overwrite is refused with 412 and what is in place, and nothing is written.
 */
describe('conditional writes (If-Match)', () => {
  const suite = new BucketSuite('conditional', async (api) => {
    await api
      .post('/object-types', {
        title: 'Posts',
        metafields: [{ type: 'text', title: 'Body', key: 'body', value: '' }],
      })
      .expect(200);
  });

  async function newPost(title = 'P'): Promise<{ id: string; version: string; etag: string }> {
    const res = await suite.api.post('/objects', { title, type: 'posts', metadata: { body: 'b0' } }).expect(200);
    await suite.harness.settled();
    const object = res.body.object as { id: string; version: string };
    return { id: object.id, version: object.version, etag: String(res.get('ETag')) };
  }

  async function latest(id: string) {
    return (await suite.api.get(`/objects/${id}?status=any&useCache=false`).expect(200)).body.object as {
      version: string;
      modified_at: string;
      metadata: { body: string };
      title: string;
    };
  }

  async function revisionCount(id: string): Promise<number> {
    return Number((await suite.api.get(`/objects/${id}/revisions?useCache=false`).expect(200)).body.total);
  }

  it('every Object read carries its version: a strong ETag on single reads that starts with it, a field in lists', async () => {
    const { id, version, etag } = await newPost('Versioned');
    assert.match(version, /^\d+$/);
    assert.equal(etag, `"${version}"`);
    const one = await suite.api.get(`/objects/${id}?status=any`).expect(200);
    assert.equal(one.body.object.version, version);
    const tag = String(one.get('ETag'));
    assert.ok(tag.startsWith(`"${version}-`), tag);
    // The kept answer carries the same tag.
    const again = await suite.api.get(`/objects/${id}?status=any`).expect(200);
    assert.equal(again.get('X-Cache'), 'HIT');
    assert.equal(again.get('ETag'), tag);
    // Another shape of the same version is another representation, so another tag with the same version.
    const narrowed = await suite.api.get(`/objects/${id}?status=any&props=id,title`).expect(200);
    assert.deepEqual(Object.keys(narrowed.body.object), ['id', 'title']);
    assert.notEqual(narrowed.get('ETag'), tag);
    assert.ok(String(narrowed.get('ETag')).startsWith(`"${version}-`));
    const list = await suite.api
      .get(`/objects?status=any&query=${encodeURIComponent(JSON.stringify({ id }))}&props=id,version`)
      .expect(200);
    assert.deepEqual(list.body.objects, [{ id, version }]);
  });

  it('a PATCH naming an older version answers 412 version_conflict with the version in place, and writes nothing', async () => {
    const { id, version } = await newPost();
    const first = await suite.api
      .patch(`/objects/${id}`, { metadata: { body: 'theirs' } })
      .set('If-Match', `"${version}"`)
      .expect(200);
    const theirs = String(first.body.object.version);
    assert.notEqual(theirs, version);
    assert.equal(first.get('ETag'), `"${theirs}"`);
    const revisions = await revisionCount(id);

    const stale = await suite.api
      .patch(`/objects/${id}`, { metadata: { body: 'mine' } })
      .set('If-Match', `"${version}"`)
      .expect(412);
    const body = stale.body as Conflict;
    assert.equal(body.status, 412);
    assert.equal(body.code, 'version_conflict');
    assert.match(body.message, /If-Match/);
    assert.equal(body.current.version, theirs);
    assert.equal(body.current.modified_at, first.body.object.modified_at);
    assert.equal(body.current.modified_by, null);
    assert.equal(stale.get('ETag'), `"${theirs}"`);
    assert.equal((await latest(id)).metadata.body, 'theirs');
    assert.equal(await revisionCount(id), revisions);

    // The ETag of a read (version and digest) names the version as well as the bare tag does.
    const read = await suite.api.get(`/objects/${id}?status=any&useCache=false`).expect(200);
    await suite.api
      .patch(`/objects/${id}`, { metadata: { body: 'mine' } })
      .set('If-Match', String(read.get('ETag')))
      .expect(200);
    assert.equal((await latest(id)).metadata.body, 'mine');
  });

  it('publishing and scheduling a withdrawal are PATCHes, and take If-Match the same way', async () => {
    const { id, version } = await newPost();
    await suite.api.patch(`/objects/${id}`, { status: 'draft', title: 'Draft over live' }).expect(200);
    await suite.api.patch(`/objects/${id}`, { status: 'published' }).set('If-Match', `"${version}"`).expect(412);
    await suite.api
      .patch(`/objects/${id}`, { unpublish_at: Date.now() + 3_600_000 })
      .set('If-Match', `"${version}"`)
      .expect(412);
    const live = await suite.api.get(`/objects/${id}?useCache=false`).expect(200);
    assert.equal(live.body.object.title, 'P');
    assert.equal(live.body.object.unpublish_at, undefined);
    const now = (await latest(id)).version;
    const published = await suite.api
      .patch(`/objects/${id}`, { status: 'published' })
      .set('If-Match', `"${now}"`)
      .expect(200);
    assert.equal(published.body.object.title, 'Draft over live');
  });

  it('a DELETE naming an older version answers 412 and deletes nothing; naming the latest, it deletes', async () => {
    const { id, version } = await newPost();
    await suite.api.patch(`/objects/${id}`, { title: 'Changed' }).expect(200);
    const refused = await suite.api.delete(`/objects/${id}`).set('If-Match', `"${version}"`).expect(412);
    assert.equal((refused.body as Conflict).code, 'version_conflict');
    const now = (await latest(id)).version;
    assert.equal((refused.body as Conflict).current.version, now);
    await suite.api.delete(`/objects/${id}`).set('If-Match', `"${now}"`).expect(200);
    await suite.api.get(`/objects/${id}?status=any&useCache=false`).expect(404);
  });

  it('If-Match: * and a list of tags match what they name; weak or foreign tags never do; a malformed header is a 400', async () => {
    const { id, version } = await newPost();
    await suite.api.patch(`/objects/${id}`, { title: 'Any' }).set('If-Match', '*').expect(200);
    const now = (await latest(id)).version;
    await suite.api.patch(`/objects/${id}`, { title: 'Weak' }).set('If-Match', `W/"${now}"`).expect(412);
    await suite.api.patch(`/objects/${id}`, { title: 'Foreign' }).set('If-Match', '"not-ours"').expect(412);
    await suite.api.patch(`/objects/${id}`, { title: 'Listed' }).set('If-Match', `"${version}", "${now}"`).expect(200);
    const bad = await suite.api.patch(`/objects/${id}`, { title: 'Bad' }).set('If-Match', now).expect(400);
    assert.equal(bad.body.status, 400);
    assert.match(bad.body.message, /If-Match .* is not an entity tag/);
    assert.equal((await latest(id)).title, 'Listed');
    // Without If-Match nothing changes for existing clients: the write applies to the latest version.
    await suite.api.patch(`/objects/${id}`, { title: 'Unconditional' }).expect(200);
  });

  it('20 PATCHes at once with the same If-Match: exactly one applies, nineteen answer 412', async function () {
    this.timeout(120_000);
    const { id, version } = await newPost();
    const revisions = await revisionCount(id);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        suite.api
          .patch(`/objects/${id}`, { metadata: { body: `writer ${String(i)}` } })
          .set('If-Match', `"${version}"`)
          .then((r) => ({ status: r.status, body: r.body as { object?: { metadata: { body: string } } } })),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, ...Array<number>(19).fill(412)]);
    const winner = results.find((r) => r.status === 200)?.body.object?.metadata.body;
    assert.equal((await latest(id)).metadata.body, winner);
    await suite.harness.settled();
    assert.equal(await revisionCount(id), revisions + 1);
  });

  it('batch edits and deletes take a version each; a stale one fails alone with 412 and the version in place', async () => {
    const a = await newPost('A');
    const b = await newPost('B');
    await suite.api.patch(`/objects/${b.id}`, { title: 'B2' }).expect(200);
    const res = await suite.api
      .post('/objects/batch', {
        operations: [
          { method: 'edit', object_id: a.id, version: a.version, object: { title: 'A2' } },
          { method: 'edit', object_id: b.id, version: b.version, object: { title: 'B3' } },
          { method: 'delete', object_id: b.id, version: b.etag },
        ],
      })
      .expect(200);
    const ops = res.body.operations as { status: number; code?: string; current?: { version: string } }[];
    assert.deepEqual(
      ops.map((o) => o.status),
      [200, 412, 412],
    );
    const stale = ops[1];
    assert.equal(stale?.code, 'version_conflict');
    assert.equal(stale.current?.version, (await latest(b.id)).version);
    assert.equal((await latest(a.id)).title, 'A2');
    assert.equal((await latest(b.id)).title, 'B2');
  });

  it('PATCH of an Object type takes If-Match on the type version', async () => {
    const created = await suite.api.post('/object-types', { title: 'Pages', metafields: [] }).expect(200);
    const version = String(created.body.object_type.version);
    assert.match(version, /^\d+$/);
    const first = await suite.api
      .patch('/object-types/pages', { title: 'Pages (theirs)' })
      .set('If-Match', `"${version}"`)
      .expect(200);
    const theirs = String(first.body.object_type.version);
    assert.notEqual(theirs, version);
    assert.equal(first.get('ETag'), `"${theirs}"`);
    const stale = await suite.api
      .patch('/object-types/pages', { title: 'Pages (mine)' })
      .set('If-Match', `"${version}"`)
      .expect(412);
    assert.equal((stale.body as Conflict).code, 'version_conflict');
    assert.equal((stale.body as Conflict).current.version, theirs);
    const read = await suite.api.get('/object-types/pages').expect(200);
    assert.equal(read.body.object_type.title, 'Pages (theirs)');
    assert.equal(read.body.object_type.version, theirs);
  });
});
