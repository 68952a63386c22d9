import assert from 'node:assert/strict';
import { API, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

/** The editor hears of a colleague's save on the change feed and says so before a save would conflict. */
describe('Studio in a real browser: live changes to the open Object', function () {
  const s = studioSession(this);
  if (!s) return;
  let id = '';

  before(async () => {
    await s
      .keyed('post', `${API}/object-types`)
      .send({ title: 'Notes', slug: 'notes', metafields: [{ type: 'text', title: 'Body', key: 'body', value: '' }] })
      .expect(200);
    id = (
      await s
        .keyed('post', `${API}/objects`)
        .send({ title: 'Shared note', type: 'notes', metadata: { body: 'first' } })
        .expect(200)
    ).body.object.id;
    await s.page.goto(`${s.origin}/studio/`);
    await s.page.getByRole('button', { name: 'Bucket key' }).click();
    await s.page.getByRole('textbox', { name: 'Bucket' }).fill(SLUG);
    await s.page.getByRole('textbox', { name: 'Write key' }).fill(s.writeKey);
    await s.page.getByRole('button', { name: 'Open Bucket' }).click();
    await s.nav().getByRole('link', { name: 'Webhooks' }).waitFor();
  });

  /**
   * Resolves once the page's change-feed stream has its answer: a stream follows what happens
   * after it opens, so the other session's save must come after that, not merely after the page
   * shows its content (the ticket and the stream come a moment later).
   */
  const streamOpened = () =>
    s.page.waitForResponse((r) => /\/events\?/.test(r.url()) && r.status() === 200, { timeout: 20_000 });

  it('the Object list shows an Object another session creates, without a reload', async () => {
    const streaming = streamOpened();
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/objects/notes`);
    await s.page.getByRole('link', { name: 'Shared note' }).waitFor();
    await streaming;
    await s.keyed('post', `${API}/objects`).send({ title: 'Arrived live', type: 'notes' }).expect(200);
    await s.page.getByRole('link', { name: 'Arrived live' }).waitFor();
    await s.page.screenshot({ path: `${SHOTS}/live-list.png` });
  });

  it('shows who changed the open Object and when, with Reload, which takes their version', async () => {
    const streaming = streamOpened();
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/objects/notes/${id}`);
    const body = s.page.getByRole('textbox', { name: 'Body' });
    await body.waitFor();
    await streaming;
    assert.equal(await body.inputValue(), 'first');
    const notice = s.page.getByRole('alert').filter({ hasText: /changed by/ });
    assert.equal(await notice.count(), 0, 'no notice before anyone else saves');

    // Another session (the Bucket key, through the API) saves the Object.
    await s
      .keyed('patch', `${API}/objects/${id}`)
      .send({ metadata: { body: 'from a colleague' } })
      .expect(200);
    await notice.waitFor();
    assert.match(await notice.innerText(), /changed by someone using the Bucket key at /);
    await s.page.screenshot({ path: `${SHOTS}/live-change-notice.png` });

    await notice.getByRole('button', { name: 'Reload' }).click();
    await notice.waitFor({ state: 'detached' });
    assert.equal(await body.inputValue(), 'from a colleague');
  });
});
