import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/browser.js';
import { API, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

/**
 * Two editors on one Object, and one who wanders off mid-sentence: Studio never overwrites a
 * colleague's save without asking and never drops typed work without asking.
 */
describe('Studio in a real browser: edit conflicts, autosave and unsaved work', function () {
  const s = studioSession(this);
  if (!s) return;
  let id = '';
  let other: Page;

  const editorUrl = () => `${s.origin}/studio/b/${SLUG}/objects/articles/${id}`;
  const summary = (page: Page) => page.getByRole('textbox', { name: 'Summary' });
  const saved = (page: Page) => page.getByRole('status').filter({ hasText: /^Saved$/ });
  const latest = async () =>
    (await s.keyed('get', `${API}/objects/${id}?status=any&useCache=false`).expect(200)).body.object as {
      title: string;
      version: string;
      metadata: { summary: string };
    };

  const openWithKey = async (page: Page): Promise<void> => {
    await page.goto(`${s.origin}/studio/`);
    await page.getByRole('button', { name: 'Bucket key' }).click();
    await page.getByRole('textbox', { name: 'Bucket' }).fill(SLUG);
    await page.getByRole('textbox', { name: 'Write key' }).fill(s.writeKey);
    await page.getByRole('button', { name: 'Open Bucket' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Webhooks' }).waitFor();
    await page.goto(editorUrl());
    await summary(page).waitFor();
  };

  before(async () => {
    await s
      .keyed('post', `${API}/object-types`)
      .send({
        title: 'Articles',
        slug: 'articles',
        metafields: [
          { type: 'text', title: 'Summary', key: 'summary', value: '' },
          { type: 'markdown', title: 'Notes', key: 'notes', value: '' },
        ],
      })
      .expect(200);
    const created = await s
      .keyed('post', `${API}/objects`)
      .send({ title: 'Shared', type: 'articles', metadata: { summary: 'original', notes: '' } })
      .expect(200);
    id = created.body.object.id;
    const browser = s.context.browser();
    assert.ok(browser);
    other = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    other.setDefaultTimeout(20_000);
    await openWithKey(s.page);
    await openWithKey(other);
  });

  after(async () => {
    await other.context().close();
  });

  it('saves a draft by itself once typing pauses, saying Unsaved changes, then Saved, and leaves the live version alone', async () => {
    await saved(s.page).waitFor();
    await summary(s.page).fill('from A');
    await s.page
      .getByRole('status')
      .filter({ hasText: /^(Unsaved changes|Saving…)$/ })
      .waitFor();
    await saved(s.page).waitFor();
    assert.equal((await latest()).metadata.summary, 'from A');
    const live = await s.keyed('get', `${API}/objects/${id}?useCache=false`).expect(200);
    assert.equal(live.body.object.metadata.summary, 'original');
  });

  it('a save over a version someone else replaced opens Edit conflict, field by field; Overwrite with mine keeps mine', async () => {
    // The second editor opened the Object before the first one's save.
    await other.getByRole('textbox', { name: 'Title', exact: true }).fill('Shared by B');
    await summary(other).fill('from B');
    await other.keyboard.press('Control+s');
    const dialog = other.getByRole('alertdialog', { name: 'Edit conflict' });
    await dialog.waitFor();
    const rows = dialog.getByRole('row');
    await rows.filter({ hasText: 'Summary' }).waitFor();
    assert.match(await rows.filter({ hasText: 'Summary' }).innerText(), /from A[\s\S]*from B/);
    assert.match(await rows.filter({ hasText: 'Title' }).innerText(), /Shared[\s\S]*Shared by B/);
    assert.equal(await rows.filter({ hasText: 'Notes' }).count(), 0, 'only fields that differ are listed');
    assert.equal((await latest()).metadata.summary, 'from A', 'nothing written before the choice');
    assert.deepEqual(await seriousViolations(other), []);
    await other.screenshot({ path: `${SHOTS}/conflict-desktop.png` });
    await other.setViewportSize({ width: 390, height: 844 });
    await other.screenshot({ path: `${SHOTS}/conflict-phone.png` });
    await other.setViewportSize({ width: 1280, height: 900 });
    await dialog.getByRole('button', { name: 'Overwrite with mine' }).click();
    await saved(other).waitFor();
    const now = await latest();
    assert.equal(now.metadata.summary, 'from B');
    assert.equal(now.title, 'Shared by B');
  });

  it('Reload their version replaces what was typed with the version in place', async () => {
    // The first editor still holds the version it saved itself, which the second just replaced.
    s.expectRefusal(412, `${API}/objects/${id}`);
    await summary(s.page).fill('A again');
    const dialog = s.page.getByRole('alertdialog', { name: 'Edit conflict' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Reload their version' }).click();
    await saved(s.page).waitFor();
    assert.equal(await summary(s.page).inputValue(), 'from B');
    assert.equal(await s.page.getByRole('textbox', { name: 'Title', exact: true }).inputValue(), 'Shared by B');
    assert.equal((await latest()).metadata.summary, 'from B');
  });

  it('Ctrl+S saves at once', async () => {
    await summary(s.page).fill('saved by shortcut');
    await s.page.keyboard.press('Control+s');
    await s.page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    assert.equal((await latest()).metadata.summary, 'saved by shortcut');
  });

  it('leaving with unsaved work asks first: Stay keeps it, Leave goes; back and closing the tab ask too', async () => {
    // Within Studio, so the browser's back stays on the page and Studio hears of it.
    const objects = s.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Articles' });
    await objects.click();
    await s.page.getByRole('button', { name: 'New Object' }).click();
    const title = s.page.getByRole('textbox', { name: 'Title', exact: true });
    await title.fill('Half-written');
    await objects.click();
    const dialog = s.page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await dialog.waitFor();
    await s.page.screenshot({ path: `${SHOTS}/leave-desktop.png` });
    await dialog.getByRole('button', { name: 'Stay' }).click();
    assert.equal(await title.inputValue(), 'Half-written');
    assert.match(s.page.url(), /\/articles\/new$/);

    await s.page.goBack();
    await dialog.waitFor();
    assert.match(s.page.url(), /\/articles\/new$/, 'the address stays while the dialog asks');
    await dialog.getByRole('button', { name: 'Stay' }).click();
    assert.equal(await title.inputValue(), 'Half-written');

    await objects.click();
    await dialog.getByRole('button', { name: 'Leave' }).click();
    await s.page.getByRole('button', { name: 'New Object' }).waitFor();
    assert.match(s.page.url(), /\/objects\/articles$/);

    // Closing the tab: the browser's own prompt, which Studio asks for only with unsaved work.
    await other.goto(`${s.origin}/studio/b/${SLUG}/objects/articles/new`);
    // A click and keys, not fill: the browser prompts only on a page the person has interacted with.
    await other.getByRole('textbox', { name: 'Title', exact: true }).click();
    await other.keyboard.type('Unsaved in a closing tab');
    const asked = new Promise<string>((resolve) => {
      other.once('dialog', (d) => {
        resolve(d.type());
        void d.dismiss();
      });
    });
    await other.close({ runBeforeUnload: true });
    assert.equal(await asked, 'beforeunload');
  });

  it('logged no console error along the way', () => {
    // The one 412 this page provokes on purpose was announced; the second editor's page is not watched.
    assert.deepEqual(s.consoleErrors, []);
  });

  it('runs no uploaded script on its pages, even one included from its own origin', async () => {
    const up = await s
      .keyed('post', `${API}/media`)
      .attach('media', Buffer.from('window.pwned = true;'), { filename: 'evil.js', contentType: 'text/javascript' })
      .expect(200);
    const url = new URL(String(up.body.media.url));
    await s.page.goto(editorUrl());
    await summary(s.page).waitFor();
    await assert.rejects(s.page.addScriptTag({ url: url.pathname }));
    assert.equal(await s.page.evaluate(() => (window as { pwned?: boolean }).pwned), undefined);
    // The browser says why: the page's policy refused it.
    assert.ok(
      s.consoleErrors.some((e) => /Content Security Policy/.test(e)),
      s.consoleErrors.join('\n'),
    );
    s.consoleErrors.length = 0;
  });
});
