import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import request from 'supertest';
import { mergeRequestsCollection } from '../../lib/merge-requests/collection.js';
import { account, member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

interface ApiMr {
  id: string;
  status: string;
  created_by: string | null;
  merged_by: string | null;
  closed_by: string | null;
  merged_at: string | null;
  closed_at: string | null;
}

const SLUG = 'mr-accounts';
const base = `/v3/buckets/${SLUG}`;

describe('merge requests: who made, merged and closed them; draft_only may not merge', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const ids: Record<'admin' | 'editor' | 'drafter', string> = { admin: '', editor: '', drafter: '' };
  const tokens: Record<'admin' | 'editor' | 'drafter', string> = { admin: '', editor: '', drafter: '' };
  const suite = new BucketSuite(SLUG, async (_api, context) => {
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    ids.admin = await account(suite.harness, 'mr-admin@example.com', SLUG);
    ids.editor = await member(suite.harness, SLUG, 'mr-editor@example.com', { role: 'editor' });
    ids.drafter = await member(suite.harness, SLUG, 'mr-drafter@example.com', {
      role: 'editor',
      publishing_restrictions: 'draft_only',
    });
    for (const who of ['admin', 'editor', 'drafter'] as const)
      tokens[who] = await tokenOf(suite.harness, `mr-${who}@example.com`);
    await as(key()).post(`${base}/object-types`).send({ title: 'Posts' }).expect(200);
  });

  const key = () => String(suite.keys.write_key);
  const as = (credential: string) => ({
    get: (path: string) => request(suite.harness.app).get(path).set('Authorization', `Bearer ${credential}`),
    post: (path: string) => request(suite.harness.app).post(path).set('Authorization', `Bearer ${credential}`),
  });
  const mrOf = (res: request.Response) => (res.body as { merge_request: ApiMr }).merge_request;
  const liveTitle = async (id: string) =>
    String((await as(key()).get(`${base}/objects/${id}`).expect(200)).body.object.title);

  /** A published Object with a later draft over it; the merge request of that draft, made with `credential`. */
  async function draftRequest(credential: string, title: string): Promise<{ mr: ApiMr; objectId: string }> {
    const made = await as(key())
      .post(`${base}/objects`)
      .send({ title: `${title} live`, type: 'posts', status: 'published' })
      .expect(200);
    const objectId = String(made.body.object.id);
    await as(key())
      .post(`${base}/objects/${objectId}/revisions`)
      .send({ title: `${title} draft` })
      .expect(200);
    const res = await as(credential)
      .post(`${base}/merge-requests`)
      .send({ title, object_ids: [objectId] })
      .expect(200);
    return { mr: mrOf(res), objectId };
  }

  it('records created_by and merged_by (account ids) with merged_at; a merge publishes the draft', async () => {
    const { mr, objectId } = await draftRequest(tokens.admin, 'By admin');
    assert.equal(mr.created_by, ids.admin);
    assert.deepEqual([mr.merged_by, mr.closed_by, mr.merged_at], [null, null, null]);
    const listed = await as(tokens.editor).get(`${base}/merge-requests`).expect(200);
    assert.equal((listed.body.merge_requests as ApiMr[]).find((m) => m.id === mr.id)?.created_by, ids.admin);
    for (const legacy of [`/v1/${SLUG}`, `/v2/buckets/${SLUG}`]) {
      const objects = await as(tokens.editor).get(`${legacy}/merge-requests/${mr.id}/objects`).expect(200);
      assert.equal(objects.body.total, 1, legacy);
    }
    const merged = mrOf(await as(tokens.editor).post(`${base}/merge-requests/${mr.id}/merge`).expect(200));
    assert.equal(merged.status, 'merged');
    assert.equal(merged.merged_by, ids.editor);
    assert.ok(merged.merged_at !== null && Date.parse(merged.merged_at) > 0);
    assert.equal(merged.created_by, ids.admin);
    assert.equal(await liveTitle(objectId), 'By admin draft');
    const again = mrOf(await as(key()).get(`${base}/merge-requests/${mr.id}`).expect(200));
    assert.deepEqual([again.created_by, again.merged_by], [ids.admin, ids.editor]);
  });

  it('a Bucket key makes and closes requests as no one (null); a token closing records closed_by', async () => {
    const keyed = await draftRequest(key(), 'By key');
    assert.equal(keyed.mr.created_by, null);
    const closedByToken = mrOf(await as(tokens.admin).post(`${base}/merge-requests/${keyed.mr.id}/close`).expect(200));
    assert.deepEqual([closedByToken.status, closedByToken.closed_by], ['closed', ids.admin]);
    assert.ok(closedByToken.closed_at !== null);
    const other = await draftRequest(tokens.editor, 'Closed by key');
    assert.equal(other.mr.created_by, ids.editor);
    const closedByKey = mrOf(await as(key()).post(`${base}/merge-requests/${other.mr.id}/close`).expect(200));
    assert.deepEqual([closedByKey.closed_by, closedByKey.merged_by], [null, null]);
  });

  it('a draft_only user may record a merge request but its merge is 403 and publishes nothing', async () => {
    const { mr, objectId } = await draftRequest(tokens.drafter, 'Drafted');
    assert.equal(mr.created_by, ids.drafter);
    const refused = await as(tokens.drafter).post(`${base}/merge-requests/${mr.id}/merge`).expect(403);
    assert.equal(refused.body.code, 'forbidden');
    assert.match(refused.body.message, /draft_only.*merging a merge request publishes/);
    const still = mrOf(await as(key()).get(`${base}/merge-requests/${mr.id}`).expect(200));
    assert.deepEqual([still.status, still.merged_by], ['open', null]);
    assert.equal(await liveTitle(objectId), 'Drafted live');
    const merged = mrOf(await as(tokens.admin).post(`${base}/merge-requests/${mr.id}/merge`).expect(200));
    assert.equal(merged.merged_by, ids.admin);
    assert.equal(await liveTitle(objectId), 'Drafted draft');
  });

  it('a request stored before these fields were recorded answers them as null', async () => {
    const { mr } = await draftRequest(tokens.admin, 'Older');
    await mergeRequestsCollection(suite.harness.db).updateOne(
      { _id: new ObjectId(mr.id) },
      { $unset: { created_by: '', merged_by: '', closed_by: '' } },
    );
    const old = mrOf(await as(key()).get(`${base}/merge-requests/${mr.id}`).expect(200));
    assert.deepEqual([old.created_by, old.merged_by, old.closed_by], [null, null, null]);
  });
});
