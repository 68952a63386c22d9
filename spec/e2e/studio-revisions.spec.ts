import assert from 'node:assert/strict';
import request from 'supertest';
import { seriousViolations } from '../support/browser.js';
import { member, tokenOf } from '../support/accounts.js';
import { ADMIN, API, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

const EDITOR = 'editor@studio.test';

/**
 * Revisions in Studio: an Object edited by the Bucket key, by the admin in Studio and by another
 * account, then two earlier revisions compared field by field with their authors; and a link made
 * with the rich-text toolbar's link field, read back over the API.
 */
describe('Studio in a real browser: revisions compared, and links in rich text', function () {
  const s = studioSession(this);
  if (!s) return;
  let id = '';
  const editorPath = () => `${s.origin}/studio/b/${SLUG}/objects/articles/${id}`;
  const saveDraft = async () => {
    await s.page.getByRole('button', { name: 'Save draft' }).click();
    await s.page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
  };
  const stored = async () =>
    (await s.keyed('get', `${API}/objects/${id}?status=any`).expect(200)).body.object as {
      metadata: Record<string, unknown>;
    };

  before(async () => {
    const metafields = [
      { type: 'text', title: 'Subtitle', key: 'subtitle', value: '' },
      { type: 'html-textarea', title: 'Body', key: 'body', value: '' },
      { type: 'markdown', title: 'Notes', key: 'notes', value: '' },
      { type: 'json', title: 'Data', key: 'data', value: null },
    ];
    const type = await s.keyed('post', `${API}/object-types`).send({ title: 'Articles', slug: 'articles', metafields });
    assert.equal(type.status, 200, JSON.stringify(type.body));
    const made = await s.keyed('post', `${API}/objects`).send({
      title: 'Launch',
      type: 'articles',
      status: 'draft',
      metadata: {
        subtitle: 'First plain subtitle',
        body: '<p>Hello world</p>',
        notes: '# Plan\n\nShip it *soon*.',
        data: { owner: 'ann', steps: ['draft'] },
      },
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    id = made.body.object.id;
    await member(s.h, SLUG, EDITOR, { role: 'editor' });
  });

  it('edits the Object in Studio: a text field, rich text and markdown', async () => {
    await s.page.goto(`${s.origin}/studio/`);
    await s.signIn(ADMIN);
    await s.nav().getByRole('link', { name: 'Articles' }).waitFor();
    await s.page.goto(editorPath());
    await s.page.getByRole('textbox', { name: 'Subtitle' }).fill('Second plain subtitle');
    const body = s.page.getByRole('textbox', { name: 'Body' });
    await body.click();
    await s.page.keyboard.press('End');
    await s.page.keyboard.type(' and welcome');
    await s.page.getByRole('textbox', { name: 'Notes' }).fill('# Plan\n\nShip it *next week*.\n\n- check the links');
    await saveDraft();
    const { metadata } = await stored();
    assert.equal(metadata.body, '<p>Hello world and welcome</p>');
    assert.equal(metadata.subtitle, 'Second plain subtitle');
  });

  it('takes an edit by another account over the API', async () => {
    const token = await tokenOf(s.h, EDITOR);
    await request(s.h.app)
      .patch(`${API}/objects/${id}`)
      .set('Authorization', `Bearer ${token}`)
      .send({ metadata: { subtitle: 'Third plain subtitle', data: { owner: 'bob', steps: ['draft', 'review'] } } })
      .expect(200);
  });

  it('adds a link with the link button, refusing a javascript: address, and the API keeps it', async () => {
    await s.page.reload();
    const body = s.page.getByRole('textbox', { name: 'Body' });
    const linkButton = s.page
      .getByRole('toolbar', { name: 'Body formatting' })
      .getByRole('button', { name: 'Link', exact: true });
    await body.getByText('Hello world and welcome').waitFor();
    await body.click();
    await s.page.keyboard.press('End');
    await s.page.keyboard.press('Control+Shift+ArrowLeft');
    await linkButton.click();
    const address = s.page.getByRole('textbox', { name: 'Link address' });
    await address.fill('javascript:alert(1)');
    await s.page.getByRole('button', { name: 'Add link' }).click();
    await s.page.getByRole('alert').filter({ hasText: 'javascript: addresses are not allowed' }).waitFor();
    await address.fill('https://example.com/hello');
    await address.press('Enter');
    await body.getByRole('link', { name: 'welcome' }).waitFor();
    assert.equal(await address.count(), 0, 'the link field closes once the link is made');
    // With the cursor in the link, the field shows its address and offers to remove it.
    await body.getByRole('link', { name: 'welcome' }).click();
    await linkButton.click();
    assert.equal(await address.inputValue(), 'https://example.com/hello');
    await s.page.getByRole('button', { name: 'Remove link' }).waitFor();
    await s.page.getByRole('button', { name: 'Cancel' }).click();
    await saveDraft();
    const { metadata } = await stored();
    assert.match(
      String(metadata.body),
      /^<p>Hello world and <a [^>]*href="https:\/\/example\.com\/hello"[^>]*>welcome<\/a><\/p>$/,
    );
    assert.equal(metadata.subtitle, 'Third plain subtitle', "the other account's edit is kept");
  });

  it('lists each revision with its author, and compares two earlier ones field by field', async () => {
    const list = s.page.locator('.revision-list li');
    await list.nth(3).waitFor();
    assert.equal(await list.count(), 4);
    const texts = await list.allInnerTexts();
    assert.match(texts[0]!, / · by Ada L \(admin@studio\.test\) · Launch/);
    assert.match(texts[1]!, / · by Ada L \(editor@studio\.test\) · Launch/);
    assert.match(texts[2]!, / · by Ada L \(admin@studio\.test\) · Launch/);
    assert.match(texts[3]!, / · create · by a Bucket key · Launch/);
    // The create (the oldest) with the other account's edit (the second newest): neither is the latest.
    const oldest = (await s.keyed('get', `${API}/objects/${id}/revisions?sort=created_at`).expect(200)).body
      .revisions as { id: string }[];
    await s.page.getByRole('combobox', { name: 'Compare revision' }).selectOption(oldest[0]!.id);
    await s.page.getByRole('combobox', { name: 'with revision' }).selectOption(oldest[2]!.id);
    const region = s.page.getByRole('region', { name: 'Revision', exact: true });
    await region
      .getByRole('heading', {
        name: /^Changes from .*, create, by a Bucket key to .*, edit, by Ada L \(editor@studio\.test\)$/,
      })
      .waitFor();
    const field = (name: string) =>
      region.locator('.compare-field').filter({ has: s.page.getByRole('term').getByText(name, { exact: true }) });
    const marked = async (name: string, tag: 'ins' | 'del') => field(name).locator(tag).allInnerTexts();
    assert.deepEqual(await marked('Subtitle', 'del'), ['First']);
    assert.deepEqual(await marked('Subtitle', 'ins'), ['Third']);
    // Rich text and markdown show a word diff until their renderer has loaded: compare what renders.
    await field('Body').locator('.diff-rendered').waitFor();
    await field('Notes').locator('.diff-rendered').waitFor();
    // The rendered diff of the pair chosen before (create with the latest, linked, version) may
    // still show while this pair's renders: wait for this pair's.
    await field('Body')
      .locator('ins', { hasText: /^and welcome$/ })
      .waitFor();
    await field('Notes')
      .locator('ins', { hasText: /^check the links$/ })
      .waitFor();
    assert.deepEqual(await marked('Body', 'ins'), ['and welcome']);
    assert.deepEqual(await marked('Body', 'del'), []);
    assert.equal(await field('Body').locator('a').count(), 0, 'the link came later, after both');
    assert.deepEqual(await marked('Notes', 'del'), ['soon']);
    assert.deepEqual(await marked('Notes', 'ins'), ['next week', 'check the links']);
    assert.equal(await field('Notes').locator('h1').innerText(), 'Plan', 'markdown compares as it renders');
    assert.deepEqual(await marked('Data', 'del'), ['owner: ann']);
    assert.deepEqual(await marked('Data', 'ins'), ['owner: bob', 'steps: review']);
    await region.getByText(/^Unchanged: Title\b/).waitFor();
    // Inserted and deleted text are not told apart by colour alone.
    const lines = await region
      .locator('ins, del')
      .evaluateAll((els) => els.map((e) => getComputedStyle(e).textDecorationLine));
    assert.ok(lines.length > 0 && lines.every((l) => l === 'underline' || l === 'line-through'), lines.join());
    const spoken = await region
      .locator('del')
      .first()
      .evaluate((e) => getComputedStyle(e, '::before').content);
    assert.equal(spoken, '" [deleted: "');
    assert.deepEqual(await seriousViolations(s.page), []);
    await region.screenshot({ path: `${SHOTS}/revisions-compare-desktop.png` });
    await s.page.setViewportSize({ width: 390, height: 844 });
    const widths = await s.page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(widths[0]! <= widths[1]!, `page is ${widths[0]!}px wide in a ${widths[1]!}px window`);
    await region.screenshot({ path: `${SHOTS}/revisions-compare-phone.png` });
    await s.page.setViewportSize({ width: 1280, height: 900 });
  });

  it('answers each revision with its author over the API', async () => {
    const revs = (await s.keyed('get', `${API}/objects/${id}/revisions?sort=created_at`).expect(200)).body
      .revisions as {
      created_by: string | null;
      reason: string;
    }[];
    assert.equal(revs.length, 4);
    assert.equal(revs[0]!.created_by, null);
    assert.notEqual(revs[1]!.created_by, null);
    assert.notEqual(revs[2]!.created_by, revs[1]!.created_by, 'two accounts, two authors');
    assert.equal(revs[3]!.created_by, revs[1]!.created_by);
  });

  it('logged no console error along the way', () => {
    assert.deepEqual(s.consoleErrors, []);
  });
});
