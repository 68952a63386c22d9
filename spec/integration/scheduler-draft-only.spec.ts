import assert from 'node:assert/strict';
import request from 'supertest';
import { Scheduler } from '../../lib/scheduling/scheduler.js';
import { account, member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { interceptWrites } from '../support/intercept-writes.js';
import { BucketSuite } from '../support/bucket-suite.js';

const SLUG = 'sched-draft-only';
const base = `/v3/buckets/${SLUG}`;
const HOUR = 3600_000;

describe('scheduled publishing and draft_only accounts', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const tokens = { admin: '', editor: '' };

  const suite = new BucketSuite(SLUG, async (_api, context) => {
    // Logins run scrypt (128 MiB each): seconds on a busy machine.
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    await suite.api.post('/object-types', { title: 'News' }).expect(200);
    await account(suite.harness, 'admin@sched.test', SLUG);
    await member(suite.harness, SLUG, 'editor@sched.test', { role: 'editor', publishing_restrictions: 'draft_only' });
    tokens.admin = await tokenOf(suite.harness, 'admin@sched.test');
    tokens.editor = await tokenOf(suite.harness, 'editor@sched.test');
  });

  const as = (who: keyof typeof tokens, method: 'post' | 'patch', path: string, body: object) =>
    request(suite.harness.app)[method](`${base}${path}`).set('Authorization', `Bearer ${tokens[who]}`).send(body);
  const due = () => new Date(Date.now() + 2 * HOUR);
  const tick = () => new Scheduler(suite.harness.writes, { intervalMs: 0, now: due }).tick();
  const latest = async (id: string) => (await suite.api.get(`/objects/${id}?status=any`).expect(200)).body.object;

  /** A draft whose publish the admin schedules an hour from now; its id. */
  async function scheduledDraft(title: string): Promise<string> {
    const draft = await as('admin', 'post', '/objects', { title, type: 'news', status: 'draft', content: 'approved' });
    assert.equal(draft.status, 200, draft.text);
    const id = String(draft.body.object.id);
    const at = Date.now() + HOUR;
    const scheduled = await as('admin', 'patch', `/objects/${id}`, { publish_at: at });
    assert.equal(scheduled.status, 200, scheduled.text);
    assert.equal(scheduled.body.object.publish_at, at);
    return id;
  }

  it("a draft_only account's edit clears the schedule, so its edit never goes live at the scheduled time", async () => {
    const id = await scheduledDraft('Launch');
    const edit = await as('editor', 'patch', `/objects/${id}`, { content: 'not approved' });
    assert.equal(edit.status, 200, edit.text);
    assert.equal(edit.body.object.publish_at, undefined, 'the answer shows the schedule gone');
    assert.equal(edit.body.object.content, 'not approved');
    assert.equal(await tick(), 0, 'nothing is due any more');
    await suite.api.get(`/objects/${id}`).expect(404);
    const now = await latest(id);
    assert.equal(now.status, 'draft');
    assert.equal(now.content, 'not approved', "the editor's draft is kept, for a publisher to publish or schedule");
  });

  it('a draft save through POST revisions clears it too', async () => {
    const id = await scheduledDraft('Revised');
    const saved = await as('editor', 'post', `/objects/${id}/revisions`, { content: 'not approved either' });
    assert.equal(saved.status, 200, saved.text);
    assert.equal((await latest(id)).publish_at, undefined);
    assert.equal(await tick(), 0);
    await suite.api.get(`/objects/${id}`).expect(404);
  });

  it('an edit by an account that may publish keeps the schedule, and that edit is what goes live', async () => {
    const id = await scheduledDraft('Kept');
    const edit = await as('admin', 'patch', `/objects/${id}`, { content: 'approved, revised' });
    assert.equal(edit.status, 200, edit.text);
    assert.ok(edit.body.object.publish_at);
    await tick();
    const live = await suite.api.get(`/objects/${id}`).expect(200);
    assert.equal(live.body.object.content, 'approved, revised');
  });

  it('an edit landing between the claim and its publish: the scheduler writes nothing over it', async () => {
    const id = await scheduledDraft('Raced');
    let edited = false;
    const db = interceptWrites(suite.harness.db, async (call) => {
      // The scheduler has claimed the Object and is about to write its published version (its first update of it).
      if (edited || call.collection !== 'objects' || call.method !== 'updateOne') return;
      edited = true;
      const edit = await as('editor', 'patch', `/objects/${id}`, { content: 'edited mid-publish' });
      assert.equal(edit.status, 200, edit.text);
    });
    assert.equal(
      await new Scheduler({ db, events: suite.harness.writes.events }, { intervalMs: 0, now: due }).tick(),
      0,
    );
    assert.ok(edited);
    await suite.api.get(`/objects/${id}`).expect(404);
    const now = await latest(id);
    assert.equal(now.content, 'edited mid-publish', 'the edit is not overwritten by the version claimed before it');
    assert.equal(now.publish_at, undefined);
    assert.equal(await tick(), 0, 'and nothing is left to publish');
  });
});
