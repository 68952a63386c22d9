import assert from 'node:assert/strict';
import request from 'supertest';
import { PASSWORD } from '../support/accounts.js';
import { ADMIN, API, CONTRIBUTOR, png, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

/**
 * Studio's other sections in Debian's Chromium: media, webhooks, users, batch actions, refusals,
 * locales and preview, a phone's width, and what a draft-only contributor sees.
 */
describe('Studio in a real browser: media, settings and roles', function () {
  const s = studioSession(this);
  if (!s) return;
  let postId = '';

  before(async () => {
    await s
      .keyed('post', `${API}/object-types`)
      .send({
        title: 'Posts',
        slug: 'posts',
        metafields: [{ type: 'text', key: 'subtitle', title: 'Subtitle', value: '' }],
      })
      .expect(200);
    const post = await s
      .keyed('post', `${API}/objects`)
      .send({ title: 'Hello world', type: 'posts', status: 'draft' })
      .expect(200);
    postId = post.body.object.id;
    await s.page.goto(`${s.origin}/studio/`);
    await s.signIn(ADMIN);
  });

  it('uploads media with the Upload input and shows its thumbnail', async () => {
    await s.nav().getByRole('link', { name: 'Media' }).click();
    await s.page
      .getByLabel('Upload', { exact: true })
      .setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: await png('#3366cc') });
    await s.page.getByRole('link', { name: 'blue.png' }).waitFor();
    await s.page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.media-grid img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    const res = await request(s.h.app).get(`${API}/media`).set('Authorization', `Bearer ${s.writeKey}`);
    assert.deepEqual(
      res.body.media.map((m: { original_name: string }) => m.original_name),
      ['blue.png'],
    );
  });

  it('files media into folders: create, upload into, filter, refused delete, delete with move', async () => {
    const folderOf = async (name: string) => {
      const res = await s.keyed(
        'get',
        `${API}/media?query=${encodeURIComponent(JSON.stringify({ original_name: name }))}`,
      );
      return (res.body.media as { folder?: string | null }[])[0]?.folder;
    };
    const folderSelect = s.page.getByRole('combobox', { name: 'Folder', exact: true });
    for (const title of ['Archive', 'Photos']) {
      await s.page.getByRole('button', { name: 'New folder' }).click();
      await s.page.getByRole('textbox', { name: 'Folder title' }).fill(title);
      await s.page.getByRole('button', { name: 'Create folder' }).click();
      await folderSelect.locator('option', { hasText: title }).waitFor({ state: 'attached' });
    }
    assert.equal(await folderSelect.inputValue(), 'photos');
    await s.page
      .getByLabel('Upload', { exact: true })
      .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: await png('#cc3333') });
    await s.page.getByRole('link', { name: 'red.png' }).waitFor();
    assert.equal(await folderOf('red.png'), 'photos');
    // The folder's list leaves out blue.png (uploaded into no folder); waiting for it to be gone
    // rather than counting once keeps a slow list refresh from failing the run.
    await s.page.getByRole('link', { name: 'blue.png' }).waitFor({ state: 'detached' });
    await folderSelect.selectOption('');
    await s.page.getByRole('link', { name: 'blue.png' }).waitFor();
    await s.page.locator('.media-card', { hasText: 'red.png' }).getByText('Folder: Photos').waitFor();
    await folderSelect.selectOption('photos');
    await s.page.getByRole('link', { name: 'blue.png' }).waitFor({ state: 'detached' });
    s.page.once('dialog', (d) => void d.accept());
    // A folder holding media is refused on purpose: the refusal offers to move them.
    s.expectRefusal(400, `${API}/media-folders/photos`);
    await s.page.getByRole('button', { name: 'Delete folder' }).click();
    await s.page.getByRole('alert').filter({ hasText: 'media' }).waitFor();
    await s.page.screenshot({ path: `${SHOTS}/desktop-media-folders.png`, fullPage: true });
    await s.page.getByRole('combobox', { name: 'Move media to' }).selectOption('archive');
    await s.page.getByRole('button', { name: 'Move media and delete' }).click();
    await folderSelect.locator('option', { hasText: 'Photos' }).waitFor({ state: 'detached' });
    assert.equal(await folderSelect.inputValue(), 'archive');
    await s.page.getByRole('button', { name: 'Rename folder' }).click();
    await s.page.getByRole('textbox', { name: 'New folder title' }).fill('Old photos');
    await s.page.getByRole('button', { name: 'Save folder title' }).click();
    await folderSelect.locator('option', { hasText: 'Old photos (1)' }).waitFor({ state: 'attached' });
    assert.equal(await folderOf('red.png'), 'archive');
    const folders = await s.keyed('get', `${API}/media-folders`).expect(200);
    assert.deepEqual(
      folders.body.folders.map((f: { slug: string; title: string; media_count: number }) => [
        f.slug,
        f.title,
        f.media_count,
      ]),
      [['archive', 'Old photos', 1]],
    );
  });

  it('creates a webhook and lists it', async () => {
    await s.nav().getByRole('link', { name: 'Webhooks' }).click();
    await s.page.getByRole('button', { name: 'New webhook' }).click();
    await s.page.getByLabel('Webhook title').fill('Site rebuild');
    await s.page.getByLabel('Endpoint').fill('https://hooks.example/rebuild');
    await s.page.getByRole('checkbox', { name: 'object.published' }).check();
    await s.page.getByRole('button', { name: 'Save webhook' }).click();
    await s.page.getByRole('link', { name: 'Site rebuild' }).waitFor();
    await s.page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    const res = await request(s.h.app).get(`${API}/webhooks`).set('Authorization', `Bearer ${s.writeKey}`);
    assert.deepEqual(
      res.body.webhooks.map((w: { title: string; events: string[] }) => [w.title, w.events]),
      [['Site rebuild', ['object.published']]],
    );
  });

  it("lists the Bucket's users and adds one", async () => {
    await s.nav().getByRole('link', { name: 'Users' }).click();
    await s.page.getByRole('form', { name: `User ${CONTRIBUTOR}` }).waitFor();
    await s.page.getByLabel('User e-mail').fill('new@studio.test');
    await s.page.getByLabel('First name').fill('New');
    await s.page.getByLabel('Last name').fill('Editor');
    await s.page.getByRole('button', { name: 'Add user' }).click();
    await s.page.getByRole('form', { name: 'User new@studio.test' }).waitFor();
  });

  it('publishes selected Objects through the batch route', async () => {
    await s.nav().getByRole('link', { name: 'Posts' }).click();
    await s.page.getByRole('checkbox', { name: 'Select Hello world' }).check();
    await s.page.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await s.page.getByRole('status').filter({ hasText: '1 of 1 done.' }).waitFor();
    const res = await request(s.h.app)
      .get(`${API}/objects/${postId}?status=any`)
      .set('Authorization', `Bearer ${s.writeKey}`);
    assert.equal(res.body.object.status, 'published');
  });

  it("shows the API's refusal to delete a type another type points at", async () => {
    await request(s.h.app)
      .patch(`${API}/object-types/pages`)
      .set('Authorization', `Bearer ${s.writeKey}`)
      .send({ metafields: [{ type: 'object', key: 'post', title: 'Post', object_type: 'posts', value: '' }] })
      .expect(200);
    s.page.once('dialog', (d) => void d.accept());
    await s.nav().getByRole('link', { name: 'Object types' }).click();
    await s.page.getByRole('link', { name: 'Edit Posts' }).click();
    // Refused on purpose: the test is that Studio shows the API's reason.
    s.expectRefusal(400, `${API}/object-types/posts`);
    await s.page.getByRole('button', { name: 'Delete Object type' }).click();
    await s.page.getByRole('alert').filter({ hasText: 'pages' }).waitFor();
    await s.nav().getByRole('link', { name: 'Posts' }).waitFor();
  });

  it('fits every section on a phone without sideways scrolling', async () => {
    await s.page.setViewportSize({ width: 390, height: 844 });
    const sections: [string, () => Promise<void>][] = [
      ['objects', () => s.nav().getByRole('link', { name: 'Posts' }).click()],
      ['types', () => s.nav().getByRole('link', { name: 'Object types' }).click()],
      ['type-editor', () => s.page.getByRole('link', { name: 'Edit Posts' }).click()],
      ['media', () => s.nav().getByRole('link', { name: 'Media' }).click()],
      ['webhooks', () => s.nav().getByRole('link', { name: 'Webhooks' }).click()],
      ['users', () => s.nav().getByRole('link', { name: 'Users' }).click()],
    ];
    const tooWide: string[] = [];
    for (const [name, open] of sections) {
      await open();
      await s.page.getByRole('heading', { level: 1 }).waitFor();
      await s.page.waitForLoadState('networkidle');
      const [scroll, inner] = await s.page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      if (scroll > inner) tooWide.push(`${name}: ${scroll}px`);
      await s.page.screenshot({ path: `${SHOTS}/phone-${name}.png`, fullPage: true });
    }
    await s.page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(tooWide, []);
  });

  it('switches a localized Object to another locale, and opens its preview with a token', async () => {
    const auth = `Bearer ${s.writeKey}`;
    await request(s.h.app)
      .post(`${API}/object-types`)
      .set('Authorization', auth)
      .send({
        title: 'Guides',
        slug: 'guides',
        localization: true,
        locales: ['en', 'fr'],
        preview_link: `${s.origin}/v3/status?guide=[object_slug]`,
        metafields: [],
      })
      .expect(200);
    const created = await request(s.h.app)
      .post(`${API}/objects`)
      .set('Authorization', auth)
      .send({ title: 'Start', type: 'guides', locale: 'en', status: 'draft' })
      .expect(200);
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/objects/guides/${created.body.object.id}`);
    const locales = s.page.getByRole('navigation', { name: 'Locales' });
    await locales.getByRole('button', { name: 'Add fr' }).click();
    assert.equal(await s.page.getByRole('textbox', { name: 'Title', exact: true }).inputValue(), 'Start');
    assert.equal(await s.page.getByRole('combobox', { name: 'Locale' }).inputValue(), 'fr');
    await s.page.getByRole('button', { name: 'Save draft' }).click();
    await s.page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    await locales.getByRole('link', { name: 'en' }).waitFor();
    const list = await request(s.h.app)
      .get(`${API}/objects?query=${encodeURIComponent('{"type":"guides"}')}&status=any&props=slug,locale`)
      .set('Authorization', auth);
    assert.deepEqual(list.body.objects.map((o: { slug: string; locale: string }) => `${o.slug}/${o.locale}`).sort(), [
      'start/en',
      'start/fr',
    ]);
    const [popup] = await Promise.all([
      s.context.waitForEvent('page'),
      s.page.getByRole('button', { name: 'Preview' }).click(),
    ]);
    await popup.waitForLoadState();
    const opened = new URL(popup.url());
    assert.equal(opened.searchParams.get('guide'), 'start');
    assert.match(opened.searchParams.get('preview_token') ?? '', /.{20,}/);
    await popup.close();
  });

  it("narrows a draft-only contributor's view to its types, without Publish", async () => {
    await s.page.getByRole('button', { name: 'Sign out' }).click();
    await s.page.getByRole('textbox', { name: 'E-mail' }).fill(CONTRIBUTOR);
    await s.page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await s.page.getByRole('button', { name: 'Sign in' }).click();
    await s.page.getByRole('link', { name: SLUG }).click();
    await s.nav().getByRole('link', { name: 'Posts' }).click();
    await s.page.getByRole('button', { name: 'New Object' }).click();
    await s.page.getByRole('button', { name: 'Save draft' }).waitFor();
    assert.equal(await s.page.getByRole('button', { name: 'Publish' }).count(), 0);
    assert.equal(await s.nav().getByRole('link', { name: 'Pages' }).count(), 0);
    for (const name of ['Webhooks', 'Users']) assert.equal(await s.nav().getByRole('link', { name }).count(), 0, name);
  });

  it('logged no console error along the way', () => {
    assert.deepEqual(s.consoleErrors, []);
  });
});
