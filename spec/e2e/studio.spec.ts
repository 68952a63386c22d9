import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { account, PASSWORD, setMember } from '../support/accounts.js';
import {
  chromiumPresent,
  CHROMIUM,
  collectConsoleErrors,
  launchChromium,
  seriousViolations,
  servedHarness,
} from '../support/browser.js';
import type { Harness } from '../support/harness.js';

const SLUG = 'studio-e2e';
const ADMIN = 'admin@studio.test';
const CONTRIBUTOR = 'contrib@studio.test';
const SHOTS = '/tmp/studio-screenshots';

const png = (background: string) =>
  sharp({ create: { width: 48, height: 32, channels: 3, background } })
    .png()
    .toBuffer();

/**
 * Studio driven through Debian's Chromium as an editor would: one browser, one app, one page
 * moving through sign-in, types, Objects, revisions, media and a contributor's view. Each step
 * builds on the one before, as a person's session does.
 */
describe('Studio in a real browser', function () {
  if (!chromiumPresent()) {
    const why = `SKIPPED: ${CHROMIUM} is missing, so Studio's browser tests did not run (apt-get install -y chromium)`;
    console.error(`\n!!!!!!!! ${why} !!!!!!!!\n`);
    it(why);
    return;
  }
  this.timeout(90_000);

  let h: Harness;
  let origin: string;
  let close: () => Promise<void>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let writeKey: string;
  let postId = '';
  let homeId = '';
  const consoleErrors: string[] = [];
  const api = () => `/v3/buckets/${SLUG}`;
  const nav = () => page.getByRole('navigation', { name: 'Sections' });

  before(async () => {
    ({ h, origin, close } = await servedHarness());
    writeKey = (await h.bucket(SLUG)).write_key ?? '';
    await account(h, ADMIN, SLUG);
    const contributor = await account(h, CONTRIBUTOR);
    await setMember(h, SLUG, contributor, {
      role: 'contributor',
      object_types: ['posts'],
      publishing_restrictions: 'draft_only',
      additional_permissions: [],
    });
    // A second type the contributor may not see; the first one is made through Studio below.
    await request(h.app)
      .post(`${api()}/object-types`)
      .set('Authorization', `Bearer ${writeKey}`)
      .send({ title: 'Pages', slug: 'pages', metafields: [] })
      .expect(200);
    const home = await request(h.app)
      .post(`${api()}/objects`)
      .set('Authorization', `Bearer ${writeKey}`)
      .send({ title: 'Home', type: 'pages' })
      .expect(200);
    homeId = home.body.object.id;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    collectConsoleErrors(page, consoleErrors);
  });

  after(async () => {
    await context.close();
    await browser.close();
    await close();
  });

  it('signs in with a Bucket and its write key, and signs out', async () => {
    await page.goto(`${origin}/studio/`);
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('button', { name: 'Bucket key' }).click();
    await page.getByRole('textbox', { name: 'Bucket' }).fill(SLUG);
    await page.getByRole('textbox', { name: 'Write key' }).fill('wrong');
    await page.getByRole('button', { name: 'Open Bucket' }).click();
    await page.getByRole('alert').waitFor();
    await page.getByRole('textbox', { name: 'Write key' }).fill(writeKey);
    await page.getByRole('button', { name: 'Open Bucket' }).click();
    await nav().getByRole('link', { name: 'Object types' }).waitFor();
    for (const name of ['Objects', 'Media', 'Webhooks'])
      assert.equal(await nav().getByRole('link', { name, exact: true }).count(), 1, name);
    // The key lives in sessionStorage, never in a cookie or the address.
    assert.deepEqual(await context.cookies(), []);
    assert.ok(!page.url().includes(writeKey));
    assert.match(String(await page.evaluate(() => sessionStorage.getItem('studio.credential'))), /"mode":"key"/);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  });

  it('signs in with an account by keyboard alone, and lists its Buckets by slug', async () => {
    await page.getByRole('textbox', { name: 'E-mail' }).focus();
    await page.keyboard.type(ADMIN);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: SLUG }).click();
    for (const name of ['Objects', 'Object types', 'Media', 'Webhooks', 'Users'])
      await nav().getByRole('link', { name, exact: true }).waitFor();
    await nav().getByRole('link', { name: 'Pages' }).waitFor();
  });

  it('creates an Object type with several kinds of Metafields', async () => {
    await nav().getByRole('link', { name: 'Object types' }).click();
    await page.getByRole('button', { name: 'New Object type' }).click();
    await page.getByLabel('Type title').fill('Posts');
    const kinds: [string, string][] = [
      ['text', 'Subtitle'],
      ['number', 'Price'],
      ['select-dropdown', 'Category'],
      ['switch', 'Featured'],
      ['date', 'Release date'],
      ['markdown', 'Body'],
      ['json', 'Data'],
      ['file', 'Image'],
      ['objects', 'Related pages'],
    ];
    for (const [i, [kind, title]] of kinds.entries()) {
      await page.getByRole('button', { name: 'Add Metafield', exact: true }).click();
      const group = page.getByRole('group', { name: `Metafield ${i + 1}`, exact: true });
      await group.getByLabel('Kind').selectOption(kind);
      await group.getByLabel('Title', { exact: true }).fill(title);
    }
    const subtitle = page.getByRole('group', { name: 'Metafield 1', exact: true });
    await subtitle.getByLabel('Regex', { exact: true }).fill('^[A-Z]');
    await subtitle.getByLabel('Regex message').fill('Start with a capital letter');
    await page
      .getByRole('group', { name: 'Metafield 3', exact: true })
      .getByLabel(/^Options/)
      .fill('news: News\nreviews: Reviews');
    await page
      .getByRole('group', { name: 'Metafield 9', exact: true })
      .getByLabel('Related Object type')
      .selectOption('pages');
    await page.getByRole('button', { name: 'Save Object type' }).click();
    await nav().getByRole('link', { name: 'Posts' }).waitFor();
    const res = await request(h.app).get(`${api()}/object-types/posts`).set('Authorization', `Bearer ${writeKey}`);
    assert.deepEqual(
      res.body.object_type.metafields.map((m: { type: string; key: string }) => `${m.type}:${m.key}`),
      kinds.map(([kind, title]) => `${kind}:${title.toLowerCase().replace(' ', '_')}`),
    );
    assert.equal(res.body.object_type.metafields[0].regex_message, 'Start with a capital letter');
  });

  it('creates an Object, shows the API error next to its field, keeps what was typed, then publishes', async () => {
    await nav().getByRole('link', { name: 'Posts' }).click();
    await page.getByRole('button', { name: 'New Object' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    await page.getByRole('button', { name: 'New Object' }).click();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Hello world');
    await page.getByRole('textbox', { name: 'Subtitle' }).fill('lowercase start');
    await page.getByRole('spinbutton', { name: 'Price' }).fill('12.5');
    await page.getByRole('combobox', { name: 'Category' }).selectOption('news');
    await page.getByRole('switch', { name: 'Featured' }).check();
    await page.getByLabel('Release date').fill('2026-01-02');
    await page.getByRole('textbox', { name: 'Body' }).fill('# Heading\n\nSome *text*.');
    await page.getByRole('button', { name: 'Preview Body' }).click();
    await page.getByRole('heading', { name: 'Heading' }).waitFor();
    await page.getByRole('button', { name: 'Preview Body' }).click();
    // The heavy editors (rich text, code) load on demand, under the page's CSP.
    await page.getByRole('textbox', { name: 'Content' }).fill('Rich text body');
    await page.getByRole('textbox', { name: 'Data' }).fill('{"a": [1, 2]}');
    await page.getByText('Valid JSON').waitFor();
    await page.getByRole('button', { name: 'Choose Image' }).click();
    await page
      .getByLabel('Upload to Image')
      .setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: await png('#cc3333') });
    await page.getByRole('img', { name: 'red.png' }).waitFor();
    await page.getByLabel('Find pages for Related pages').fill('Hom');
    await page.getByRole('button', { name: 'Add Home' }).click();
    await page.getByRole('button', { name: 'Remove Home' }).waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    const fieldError = page.locator('#mf-subtitle-error');
    await fieldError.waitFor();
    assert.equal(await fieldError.getAttribute('role'), 'alert');
    assert.match(await fieldError.innerText(), /Start with a capital letter/);
    assert.equal(await page.getByRole('textbox', { name: 'Subtitle' }).inputValue(), 'lowercase start');
    assert.equal(await page.getByRole('textbox', { name: 'Title', exact: true }).inputValue(), 'Hello world');
    await page.getByRole('textbox', { name: 'Subtitle' }).fill('Lowercase no more');
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('status').filter({ hasText: 'Published.' }).waitFor();
    postId = /\/objects\/posts\/([0-9a-f]{24})$/.exec(page.url())?.[1] ?? '';
    assert.ok(postId, page.url());
    const res = await request(h.app).get(`${api()}/objects/${postId}`).set('Authorization', `Bearer ${writeKey}`);
    assert.equal(res.body.object.status, 'published');
    const { metadata, content } = res.body.object;
    assert.match(metadata.image.url, /\/files\/studio-e2e\/[0-9a-f]+-red\.png$/);
    assert.deepEqual(
      { ...metadata, image: undefined },
      {
        subtitle: 'Lowercase no more',
        price: 12.5,
        category: { key: 'news', value: 'News' },
        featured: true,
        release_date: '2026-01-02',
        body: '# Heading\n\nSome *text*.',
        data: { a: [1, 2] },
        image: undefined,
        related_pages: [homeId],
      },
    );
    assert.equal(content, '<p>Rich text body</p>');
  });

  it('passes axe and fits a phone without sideways scrolling', async () => {
    await page.getByRole('heading', { name: 'Revisions' }).waitFor();
    assert.deepEqual(await seriousViolations(page), []);
    // CodeMirror lays out lines off screen by estimate: show it once so the full-page shot is true.
    await page.getByRole('textbox', { name: 'Data' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/editor-desktop.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    assert.ok(widths[0]! <= widths[1]!, `page is ${widths[0]!}px wide in a ${widths[1]!}px window`);
    await page.screenshot({ path: `${SHOTS}/editor-phone.png`, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('saves a draft, then restores an earlier revision as a new draft', async () => {
    await page.getByRole('textbox', { name: 'Subtitle' }).fill('Second version');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    await page.getByRole('button', { name: /^Show revision .*\(create\)$/ }).click();
    await page.getByRole('region', { name: 'Revision' }).getByText('Second version').waitFor();
    await page.getByRole('button', { name: 'Restore' }).click();
    await page.getByRole('status').filter({ hasText: 'Revision restored' }).waitFor();
    await page.waitForFunction(
      () => (document.getElementById('mf-subtitle') as HTMLInputElement | null)?.value === 'Lowercase no more',
    );
    const res = await request(h.app)
      .get(`${api()}/objects/${postId}?status=any`)
      .set('Authorization', `Bearer ${writeKey}`);
    assert.equal(res.body.object.status, 'draft');
    assert.equal(res.body.object.metadata.subtitle, 'Lowercase no more');
  });

  it('uploads media with the Upload input and shows its thumbnail', async () => {
    await nav().getByRole('link', { name: 'Media' }).click();
    await page
      .getByLabel('Upload', { exact: true })
      .setInputFiles({ name: 'blue.png', mimeType: 'image/png', buffer: await png('#3366cc') });
    await page.getByRole('link', { name: 'blue.png' }).waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.media-grid img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    const res = await request(h.app).get(`${api()}/media`).set('Authorization', `Bearer ${writeKey}`);
    assert.deepEqual(
      res.body.media.map((m: { original_name: string }) => m.original_name),
      ['blue.png', 'red.png'],
    );
  });

  it('creates a webhook and lists it', async () => {
    await nav().getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'New webhook' }).click();
    await page.getByLabel('Webhook title').fill('Site rebuild');
    await page.getByLabel('Endpoint').fill('https://hooks.example/rebuild');
    await page.getByRole('checkbox', { name: 'object.published' }).check();
    await page.getByRole('button', { name: 'Save webhook' }).click();
    await page.getByRole('link', { name: 'Site rebuild' }).waitFor();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    const res = await request(h.app).get(`${api()}/webhooks`).set('Authorization', `Bearer ${writeKey}`);
    assert.deepEqual(
      res.body.webhooks.map((w: { title: string; events: string[] }) => [w.title, w.events]),
      [['Site rebuild', ['object.published']]],
    );
  });

  it("lists the Bucket's users and adds one", async () => {
    await nav().getByRole('link', { name: 'Users' }).click();
    await page.getByRole('form', { name: `User ${CONTRIBUTOR}` }).waitFor();
    await page.getByLabel('User e-mail').fill('new@studio.test');
    await page.getByLabel('First name').fill('New');
    await page.getByLabel('Last name').fill('Editor');
    await page.getByRole('button', { name: 'Add user' }).click();
    await page.getByRole('form', { name: 'User new@studio.test' }).waitFor();
  });

  it('publishes selected Objects through the batch route', async () => {
    await nav().getByRole('link', { name: 'Posts' }).click();
    await page.getByRole('checkbox', { name: 'Select Hello world' }).check();
    await page.getByRole('button', { name: 'Publish selected', exact: true }).click();
    await page.getByRole('status').filter({ hasText: '1 of 1 done.' }).waitFor();
    const res = await request(h.app)
      .get(`${api()}/objects/${postId}?status=any`)
      .set('Authorization', `Bearer ${writeKey}`);
    assert.equal(res.body.object.status, 'published');
  });

  it('builds a type of the remaining kinds, nested ones included, and fills each in the editor', async () => {
    await nav().getByRole('link', { name: 'Object types' }).click();
    await page.getByRole('button', { name: 'New Object type' }).click();
    await page.getByLabel('Type title').fill('Features');
    const kinds: [string, string][] = [
      ['textarea', 'Summary'],
      ['html-textarea', 'Details'],
      ['radio-buttons', 'Size'],
      ['check-boxes', 'Tags'],
      ['object', 'Main page'],
      ['parent', 'Gallery'],
      ['repeater', 'Steps'],
    ];
    const group = (n: string) => page.getByRole('group', { name: `Metafield ${n}`, exact: true });
    for (const [i, [kind, title]] of kinds.entries()) {
      await page.getByRole('button', { name: 'Add Metafield', exact: true }).click();
      await group(String(i + 1))
        .getByLabel('Kind')
        .selectOption(kind);
      await group(String(i + 1))
        .getByLabel('Title', { exact: true })
        .fill(title);
    }
    await group('3')
      .getByLabel(/^Options/)
      .fill('Small\nLarge');
    await group('4')
      .getByLabel(/^Options/)
      .fill('red\nblue');
    await group('5').getByLabel('Related Object type').selectOption('pages');
    for (const [n, child] of [
      ['6', 'Caption'],
      ['7', 'Step'],
    ] as const) {
      await page.getByRole('button', { name: `Add Metafield to ${n}` }).click();
      await group(`${n}.1`).getByLabel('Title', { exact: true }).fill(child);
    }
    await page.getByRole('button', { name: 'Save Object type' }).click();
    await nav().getByRole('link', { name: 'Features' }).click();
    await page.getByRole('button', { name: 'New Object' }).click();
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Tour');
    await page.getByRole('textbox', { name: 'Summary' }).fill('Short summary');
    await page.getByRole('textbox', { name: 'Details' }).fill('Long details');
    await page.getByRole('radio', { name: 'Large' }).check();
    await page.getByRole('checkbox', { name: 'blue' }).check();
    await page.getByLabel('Find pages for Main page').fill('Hom');
    await page.getByRole('button', { name: 'Add Home' }).click();
    await page.getByRole('textbox', { name: 'Caption' }).fill('A caption');
    await page.getByRole('button', { name: 'Add Steps item' }).click();
    await page.getByRole('textbox', { name: 'Step' }).fill('First');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    const id = /\/objects\/features\/([0-9a-f]{24})$/.exec(page.url())?.[1] ?? '';
    const res = await request(h.app)
      .get(`${api()}/objects/${id}?status=any`)
      .set('Authorization', `Bearer ${writeKey}`);
    assert.deepEqual(res.body.object.metadata, {
      summary: 'Short summary',
      details: '<p>Long details</p>',
      size: 'Large',
      tags: ['blue'],
      main_page: homeId,
      gallery: { caption: 'A caption' },
      steps: [{ step: 'First' }],
    });
  });

  it("shows the API's refusal to delete a type another type points at", async () => {
    await request(h.app)
      .patch(`${api()}/object-types/pages`)
      .set('Authorization', `Bearer ${writeKey}`)
      .send({ metafields: [{ type: 'object', key: 'post', title: 'Post', object_type: 'posts', value: '' }] })
      .expect(200);
    page.once('dialog', (d) => void d.accept());
    await nav().getByRole('link', { name: 'Object types' }).click();
    await page.getByRole('link', { name: 'Edit Posts' }).click();
    await page.getByRole('button', { name: 'Delete Object type' }).click();
    await page.getByRole('alert').filter({ hasText: 'pages' }).waitFor();
    await nav().getByRole('link', { name: 'Posts' }).waitFor();
  });

  it('fits every section on a phone without sideways scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const sections: [string, () => Promise<void>][] = [
      ['objects', () => nav().getByRole('link', { name: 'Posts' }).click()],
      ['types', () => nav().getByRole('link', { name: 'Object types' }).click()],
      ['type-editor', () => page.getByRole('link', { name: 'Edit Posts' }).click()],
      ['media', () => nav().getByRole('link', { name: 'Media' }).click()],
      ['webhooks', () => nav().getByRole('link', { name: 'Webhooks' }).click()],
      ['users', () => nav().getByRole('link', { name: 'Users' }).click()],
    ];
    const tooWide: string[] = [];
    for (const [name, open] of sections) {
      await open();
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      if (scroll > inner) tooWide.push(`${name}: ${scroll}px`);
      await page.screenshot({ path: `${SHOTS}/phone-${name}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(tooWide, []);
  });

  it('switches a localized Object to another locale, and opens its preview with a token', async () => {
    const auth = `Bearer ${writeKey}`;
    await request(h.app)
      .post(`${api()}/object-types`)
      .set('Authorization', auth)
      .send({
        title: 'Guides',
        slug: 'guides',
        localization: true,
        locales: ['en', 'fr'],
        preview_link: `${origin}/v3/status?guide=[object_slug]`,
        metafields: [],
      })
      .expect(200);
    const created = await request(h.app)
      .post(`${api()}/objects`)
      .set('Authorization', auth)
      .send({ title: 'Start', type: 'guides', locale: 'en', status: 'draft' })
      .expect(200);
    await page.goto(`${origin}/studio/b/${SLUG}/objects/guides/${created.body.object.id}`);
    const locales = page.getByRole('navigation', { name: 'Locales' });
    await locales.getByRole('button', { name: 'Add fr' }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Title', exact: true }).inputValue(), 'Start');
    assert.equal(await page.getByRole('combobox', { name: 'Locale' }).inputValue(), 'fr');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Draft saved.' }).waitFor();
    await locales.getByRole('link', { name: 'en' }).waitFor();
    const list = await request(h.app)
      .get(`${api()}/objects?query=${encodeURIComponent('{"type":"guides"}')}&status=any&props=slug,locale`)
      .set('Authorization', auth);
    assert.deepEqual(list.body.objects.map((o: { slug: string; locale: string }) => `${o.slug}/${o.locale}`).sort(), [
      'start/en',
      'start/fr',
    ]);
    const [popup] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('button', { name: 'Preview' }).click(),
    ]);
    await popup.waitForLoadState();
    const opened = new URL(popup.url());
    assert.equal(opened.searchParams.get('guide'), 'start');
    assert.match(opened.searchParams.get('preview_token') ?? '', /.{20,}/);
    await popup.close();
  });

  it("narrows a draft-only contributor's view to its types, without Publish", async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('textbox', { name: 'E-mail' }).fill(CONTRIBUTOR);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: SLUG }).click();
    await nav().getByRole('link', { name: 'Posts' }).click();
    await page.getByRole('button', { name: 'New Object' }).click();
    await page.getByRole('button', { name: 'Save draft' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Publish' }).count(), 0);
    assert.equal(await nav().getByRole('link', { name: 'Pages' }).count(), 0);
    for (const name of ['Webhooks', 'Users']) assert.equal(await nav().getByRole('link', { name }).count(), 0, name);
  });

  it('logged no console error along the way', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
