import assert from 'node:assert/strict';
import request from 'supertest';
import { Scheduler } from '../../lib/scheduling/scheduler.js';
import { member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

const SLUG = 'draft-only-live';
const base = `/v3/buckets/${SLUG}`;
const HOUR = 3600_000;

/**
 * A draft_only account saves drafts and decides nothing about what is live: taking live content
 * down (deleting an Object that has a live version, scheduling its withdrawal) is refused as
 * publishing is, on every version's routes.
 */
describe('accounts: a draft_only account cannot take live content down', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let token = '';

  const suite = new BucketSuite(SLUG, async (_api, context) => {
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await suite.api.post('/object-types', { title: 'Posts' }).expect(200);
    await member(suite.harness, SLUG, 'drafter@example.com', { role: 'editor', publishing_restrictions: 'draft_only' });
    token = await tokenOf(suite.harness, 'drafter@example.com');
  });

  const as = (method: 'post' | 'put' | 'patch' | 'delete', path: string, body: object = {}) =>
    request(suite.harness.app)[method](path).set('Authorization', `Bearer ${token}`).send(body);

  /** An Object the Bucket key published (with a draft saved over it when `draftOver`): its id and slug. */
  async function liveObject(slug: string, draftOver = false): Promise<string> {
    const made = await suite.api
      .post('/objects', { title: slug, slug, type: 'posts', status: 'published' })
      .expect(200);
    const id = String(made.body.object.id);
    if (draftOver) await suite.api.patch(`/objects/${id}`, { title: 'Next', status: 'draft' }).expect(200);
    return id;
  }

  const isLive = async (id: string) =>
    (await suite.api.get(`/objects/${id}`)).status === 200 &&
    (await suite.api.get(`/objects/${id}?status=any&props=id`)).status === 200;

  function assertRefused(res: request.Response, label: string, why: RegExp): void {
    assert.equal(res.status, 403, `${label}: ${res.text}`);
    assert.equal(res.body.code, 'forbidden', label);
    assert.match(res.body.message, /draft_only/, label);
    assert.match(res.body.message, why, label);
  }

  it('deleting an Object that is live is 403 on v3, v2, both v1 forms and the batch; it stays live', async () => {
    const id = await liveObject('live-a');
    const drafted = await liveObject('live-b', true);
    const attempts: [string, () => Promise<request.Response>][] = [
      ['v3 DELETE', () => as('delete', `${base}/objects/${id}`)],
      ['v3 DELETE of a live Object with a draft over it', () => as('delete', `${base}/objects/${drafted}`)],
      ['v2 DELETE', () => as('delete', `/v2/buckets/${SLUG}/objects/${id}`)],
      ['v1 DELETE by slug', () => as('delete', `/v1/${SLUG}/objects/live-a`)],
      ['v1 delete-object', () => as('delete', `/v1/${SLUG}/delete-object`, { slug: 'live-b' })],
    ];
    for (const [label, send] of attempts) assertRefused(await send(), label, /live/);
    const batch = await as('post', `${base}/objects/batch`, { operations: [{ method: 'delete', object_id: id }] });
    assertRefused(batch, 'batch delete', /batch/);
    assert.ok(await isLive(id));
    assert.ok(await isLive(drafted));
  });

  it('scheduling a withdrawal (unpublish_at) is 403 on v3, v2 and v1; nothing is withdrawn later', async () => {
    const id = await liveObject('live-c');
    const soon = Date.now() + 60_000;
    const attempts: [string, () => Promise<request.Response>][] = [
      [
        'v3 PATCH draft + unpublish_at',
        () => as('patch', `${base}/objects/${id}`, { status: 'draft', unpublish_at: soon }),
      ],
      ['v3 PATCH unpublish_at', () => as('patch', `${base}/objects/${id}`, { unpublish_at: soon })],
      [
        'v2 PATCH draft + unpublish_at',
        () => as('patch', `/v2/buckets/${SLUG}/objects/${id}`, { status: 'draft', unpublish_at: soon }),
      ],
      [
        'v1 edit-object draft + unpublish_at',
        () => as('put', `/v1/${SLUG}/edit-object`, { slug: 'live-c', status: 'draft', unpublish_at: soon }),
      ],
      [
        'batch edit with unpublish_at',
        () =>
          as('post', `${base}/objects/batch`, {
            operations: [{ method: 'edit', object_id: id, object: { status: 'draft', unpublish_at: soon } }],
          }),
      ],
    ];
    for (const [label, send] of attempts) assertRefused(await send(), label, /unpublish_at|batch/);
    const latest = (await suite.api.get(`/objects/${id}?status=any`).expect(200)).body.object;
    assert.equal(latest.unpublish_at, undefined, 'no withdrawal was scheduled');
    const later = () => new Date(Date.now() + 2 * HOUR);
    await new Scheduler(suite.harness.writes, { intervalMs: 0, now: later }).tick();
    assert.ok(await isLive(id), 'still live after the time it would have been withdrawn');
  });

  it('what stays open: a draft over a live Object, and deleting an Object that was never published', async () => {
    const id = await liveObject('live-d');
    const saved = await as('patch', `${base}/objects/${id}`, { title: 'Proposed', status: 'draft' });
    assert.equal(saved.status, 200, saved.text);
    assert.ok(await isLive(id), 'a draft leaves the live version live');
    const draft = await as('post', `${base}/objects`, { title: 'Mine', type: 'posts', status: 'draft' });
    assert.equal(draft.status, 200, draft.text);
    const removed = await as('delete', `${base}/objects/${String(draft.body.object.id)}`);
    assert.equal(removed.status, 200, removed.text);
    const v1Draft = await as('post', `${base}/objects`, {
      title: 'Mine too',
      slug: 'mine-too',
      type: 'posts',
      status: 'draft',
    });
    assert.equal(v1Draft.status, 200, v1Draft.text);
    const v1Removed = await as('delete', `/v1/${SLUG}/objects/mine-too`);
    assert.equal(v1Removed.status, 200, v1Removed.text);
  });
});
