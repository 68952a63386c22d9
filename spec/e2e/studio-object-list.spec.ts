import assert from 'node:assert/strict';
import { seriousViolations } from '../support/browser.js';
import { API, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

/**
 * The Object list as editors use it: statuses as they think of them, chosen columns, filters by
 * Metafield values, sorting by a column, and the whole view kept in the address.
 */
describe('Studio in a real browser: the Object list', function () {
  const s = studioSession(this);
  if (!s) return;
  // Every console error, including the "Failed to load resource" lines of 4xx answers the
  // session's collector lets pass: the list must reach its data without a failing request.
  const everyError: string[] = [];
  const ids: Record<string, string> = {};

  const create = async (body: Record<string, unknown>) =>
    (await s.keyed('post', `${API}/objects`).send(body).expect(200)).body.object as { id: string };

  before(async () => {
    s.page.on('console', (msg) => {
      if (msg.type() === 'error') everyError.push(msg.text());
    });
    // Which request failed, so a failure names it.
    s.page.on('response', (res) => {
      if (res.status() >= 400) everyError.push(`${res.status()} ${res.request().method()} ${res.url()}`);
    });
    await s.keyed('post', `${API}/object-types`).send({ title: 'People', slug: 'people', metafields: [] }).expect(200);
    for (const name of ['Alice', 'Bob'])
      ids[name] = (await create({ title: name, type: 'people', status: 'published' })).id;
    const metafields = [
      {
        type: 'select-dropdown',
        title: 'Category',
        key: 'category',
        value: '',
        options: [
          { key: 'news', value: 'News' },
          { key: 'guides', value: 'Guides' },
        ],
      },
      { type: 'switch', title: 'Featured', key: 'featured', value: false, options: 'true,false' },
      { type: 'date', title: 'Date', key: 'date', value: '', sortable: true },
      { type: 'object', title: 'Author', key: 'author', value: '', object_type: 'people' },
    ];
    await s.keyed('post', `${API}/object-types`).send({ title: 'Articles', slug: 'articles', metafields }).expect(200);
    const article = (title: string, status: string, metadata: Record<string, unknown>) =>
      create({ title, type: 'articles', status, metadata });
    ids.alpha = (
      await article('Alpha news', 'published', {
        category: 'news',
        featured: true,
        date: '2026-01-10',
        author: ids.Alice,
      })
    ).id;
    ids.beta = (
      await article('Beta guide', 'draft', { category: 'guides', featured: false, date: '2026-02-10', author: ids.Bob })
    ).id;
    ids.gamma = (
      await article('Gamma news', 'published', {
        category: 'news',
        featured: true,
        date: '2026-03-10',
        author: ids.Alice,
      })
    ).id;
    ids.delta = (
      await article('Delta news', 'published', {
        category: 'news',
        featured: false,
        date: '2025-12-01',
        author: ids.Bob,
      })
    ).id;
    // A newer draft over Gamma's live version.
    await s
      .keyed('patch', `${API}/objects/${ids.gamma}`)
      .send({ title: 'Gamma news, edited', status: 'draft' })
      .expect(200);
  });

  const table = () => s.page.getByRole('table');
  /** The titles of the list's rows, top to bottom. */
  const titles = async () => table().locator('tbody tr td:nth-child(2)').allInnerTexts();
  const rowOf = (title: string) => table().getByRole('row').filter({ hasText: title });
  const waitForTitles = async (expected: string[]) => {
    const want = expected.join('|');
    await s.page.waitForFunction(
      (w) =>
        [...document.querySelectorAll('table.list tbody tr td:nth-child(2)')].map((td) => td.textContent).join('|') ===
        w,
      want,
    );
    assert.deepEqual(await titles(), expected);
  };

  it('shows Published, Draft and Published, draft pending', async () => {
    await s.page.goto(`${s.origin}/studio/`);
    // With the write key: an account's sign-in probes whether it may only save drafts by a batch
    // that answers 400 (bucket.ts), a failed request this suite would count against the list.
    await s.page.getByRole('button', { name: 'Bucket key' }).click();
    await s.page.getByRole('textbox', { name: 'Bucket' }).fill(SLUG);
    await s.page.getByRole('textbox', { name: 'Write key' }).fill(s.writeKey);
    await s.page.getByRole('button', { name: 'Open Bucket' }).click();
    await s.nav().getByRole('link', { name: 'Articles' }).click();
    await waitForTitles(['Gamma news, edited', 'Delta news', 'Beta guide', 'Alpha news']);
    const status = async (title: string) => (await rowOf(title).locator('td').nth(2).innerText()).trim();
    assert.equal(await status('Alpha news'), 'Published');
    assert.equal(await status('Beta guide'), 'Draft');
    assert.equal(await status('Gamma news, edited'), 'Published, draft pending');
    assert.deepEqual(await seriousViolations(s.page), []);
  });

  it('chooses columns: a select, a switch, a date and a relationship, shown readably', async () => {
    await s.page.getByRole('button', { name: 'Columns' }).click();
    const chooser = s.page.getByRole('group', { name: 'Shown columns' });
    for (const name of ['Category', 'Featured', 'Date', 'Author']) await chooser.getByLabel(name).check();
    await chooser.getByLabel('Modified').uncheck();
    await s.page.screenshot({ path: `${SHOTS}/object-list-desktop-columns.png` });
    await s.page.getByRole('button', { name: 'Columns' }).click();
    await table().getByRole('columnheader', { name: 'Author' }).waitFor();
    assert.deepEqual(
      (await table().getByRole('columnheader').allInnerTexts()).map((t) => t.trim()),
      ['Select', 'Title', 'Status', 'Category', 'Featured', 'Date ', 'Author'].map((t) => t.trim()),
    );
    await rowOf('Alpha news').getByRole('cell', { name: 'Alice' }).waitFor();
    const alpha = (await rowOf('Alpha news').locator('td').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(alpha.slice(1), ['Alpha news', 'Published', 'News', 'Yes', '2026-01-10', 'Alice']);
    assert.equal(await table().getByRole('columnheader', { name: 'Modified' }).count(), 0);
  });

  it('filters by a select, a switch and a date range, with the title search', async () => {
    await s.page.getByRole('button', { name: /^Filters/ }).click();
    const filters = s.page.getByRole('group', { name: 'Filters by field' });
    await filters.getByRole('combobox', { name: 'Category' }).selectOption('news');
    await waitForTitles(['Gamma news, edited', 'Delta news', 'Alpha news']);
    await filters.getByRole('combobox', { name: 'Featured' }).selectOption('yes');
    await waitForTitles(['Gamma news, edited', 'Alpha news']);
    const date = filters.getByRole('group', { name: 'Date' });
    await date.getByLabel('From').fill('2026-01-01');
    await date.getByLabel('To').fill('2026-02-28');
    await waitForTitles(['Alpha news']);
    await date.getByLabel('To').fill('');
    await waitForTitles(['Gamma news, edited', 'Alpha news']);
    await s.page.getByRole('searchbox', { name: 'Search titles' }).fill('gamma');
    await waitForTitles(['Gamma news, edited']);
    await s.page.getByRole('searchbox', { name: 'Search titles' }).fill('');
    await waitForTitles(['Gamma news, edited', 'Alpha news']);
  });

  it('filters by a related Object chosen with the object picker', async () => {
    const filters = s.page.getByRole('group', { name: 'Filters by field' });
    await filters.getByRole('combobox', { name: 'Featured' }).selectOption('');
    await date().getByLabel('From').fill('');
    await waitForTitles(['Gamma news, edited', 'Delta news', 'Alpha news']);
    await filters.getByLabel('Find people for Author').fill('Bob');
    await filters.getByRole('button', { name: 'Add Bob' }).click();
    await waitForTitles(['Delta news']);
    await filters.getByRole('button', { name: 'Remove Bob' }).click();
    await waitForTitles(['Gamma news, edited', 'Delta news', 'Alpha news']);
    function date() {
      return filters.getByRole('group', { name: 'Date' });
    }
  });

  it('sorts by a column header, both ways, and says so with aria-sort', async () => {
    const header = table().getByRole('columnheader', { name: /^Date/ });
    assert.equal(await header.getAttribute('aria-sort'), null);
    assert.equal(await table().getByRole('columnheader', { name: 'Category' }).getByRole('button').count(), 0);
    await header.getByRole('button').click();
    await waitForTitles(['Delta news', 'Alpha news', 'Gamma news, edited']);
    assert.equal(await header.getAttribute('aria-sort'), 'ascending');
    await header.getByRole('button').click();
    await waitForTitles(['Gamma news, edited', 'Alpha news', 'Delta news']);
    assert.equal(await header.getAttribute('aria-sort'), 'descending');
  });

  it('keeps the view through a reload, and back goes to the view before', async () => {
    const url = s.page.url();
    assert.match(url, /sort=-metadata\.date/);
    await s.page.reload();
    await waitForTitles(['Gamma news, edited', 'Alpha news', 'Delta news']);
    assert.equal(s.page.url(), url);
    assert.equal(await table().getByRole('columnheader', { name: /^Date/ }).getAttribute('aria-sort'), 'descending');
    await table().getByRole('columnheader', { name: 'Author' }).waitFor();
    const filters = s.page.getByRole('group', { name: 'Filters by field' });
    assert.equal(await filters.getByRole('combobox', { name: 'Category' }).inputValue(), 'news');
    await s.page.setViewportSize({ width: 1280, height: 900 });
    await s.page.screenshot({ path: `${SHOTS}/object-list-desktop.png`, fullPage: true });
    assert.deepEqual(await seriousViolations(s.page), []);
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.screenshot({ path: `${SHOTS}/object-list-phone.png`, fullPage: true });
    await s.page.getByRole('button', { name: 'Columns' }).click();
    assert.deepEqual(await seriousViolations(s.page), []);
    await s.page.screenshot({ path: `${SHOTS}/object-list-phone-columns.png`, fullPage: true });
    await s.page.getByRole('button', { name: 'Columns' }).click();
    await s.page.setViewportSize({ width: 1280, height: 900 });
    await s.page.goBack();
    await waitForTitles(['Delta news', 'Alpha news', 'Gamma news, edited']);
    assert.equal(await table().getByRole('columnheader', { name: /^Date/ }).getAttribute('aria-sort'), 'ascending');
    await s.page.goForward();
    await waitForTitles(['Gamma news, edited', 'Alpha news', 'Delta news']);
  });

  it('shows "Published, draft pending" in the editor header', async () => {
    await rowOf('Gamma news, edited').getByRole('link', { name: 'Gamma news, edited' }).click();
    await s.page.getByRole('heading', { name: 'Gamma news, edited' }).waitFor();
    await s.page.locator('.editor .status').filter({ hasText: 'Published, draft pending' }).waitFor();
    await s.page.screenshot({ path: `${SHOTS}/object-editor-pending.png`, fullPage: true });
  });

  it('turns a published Object to "Published, draft pending" once a draft is saved over it', async () => {
    await s.page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Articles' }).click();
    await rowOf('Alpha news').getByRole('link', { name: 'Alpha news' }).click();
    await s.page
      .locator('.editor .status')
      .filter({ hasText: /^Published$/ })
      .waitFor();
    await s.page.getByRole('textbox', { name: 'Title', exact: true }).fill('Alpha news, reworded');
    await s.page.getByRole('button', { name: 'Save draft' }).click();
    await s.page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    await s.page.locator('.editor .status').filter({ hasText: 'Published, draft pending' }).waitFor();
  });

  it('logged no console errors, not even a failed request', () => {
    assert.deepEqual(s.consoleErrors, []);
    assert.deepEqual(everyError, []);
  });
});
