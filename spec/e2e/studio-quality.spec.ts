import assert from 'node:assert/strict';
import { seriousViolations } from '../support/browser.js';
import { ADMIN, API, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

/**
 * Studio's quality over a whole admin session in Debian's Chromium: every page loads without a
 * console error (a refused request counts), axe finds nothing serious in the light or the dark
 * scheme, the skip link is the first Tab stop, and `?` opens the keyboard shortcuts.
 */
describe('Studio in a real browser: console, accessibility and keyboard', function () {
  const s = studioSession(this);
  if (!s) return;
  const bucket = `/studio/b/${SLUG}`;

  before(async () => {
    // A type without Objects and a Bucket without media: their lists are empty, which the API
    // answers with a 404 unless asked not to.
    await s.keyed('post', `${API}/object-types`).send({ title: 'Posts', slug: 'posts', metafields: [] }).expect(200);
    await s
      .keyed('post', `${API}/webhooks`)
      .send({
        title: 'Rebuild',
        endpoint: 'https://hooks.example/rebuild',
        events: ['object.published'],
      })
      .expect(200);
  });

  /** Goes to a page afresh (as a reload or a deep link would) and waits for it to settle. */
  const visit = async (path: string): Promise<void> => {
    await s.page.goto(`${s.origin}${path}`);
    await s.page.getByRole('heading', { level: 1 }).first().waitFor();
    await s.page.waitForLoadState('networkidle');
  };

  /** axe's serious and critical findings in the light scheme, then in the dark one. */
  const violationsInBothSchemes = async (): Promise<string[]> => {
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      await s.page.emulateMedia({ colorScheme });
      found.push(...(await seriousViolations(s.page)).map((v) => `${colorScheme}: ${v}`));
    }
    await s.page.emulateMedia({ colorScheme: 'light' });
    return found;
  };

  it('passes axe on the sign-in page in both schemes, and signs in', async () => {
    await visit('/studio/');
    assert.deepEqual(await violationsInBothSchemes(), []);
    await s.signIn(ADMIN);
    await s.nav().getByRole('link', { name: 'Users' }).waitFor();
  });

  it('passes axe on every page in both schemes', async () => {
    const pages = [
      '/studio/',
      `${bucket}/objects`,
      `${bucket}/objects/pages`,
      `${bucket}/objects/posts`,
      `${bucket}/objects/pages/${s.homeId}`,
      `${bucket}/objects/pages/new`,
      `${bucket}/types`,
      `${bucket}/types/pages`,
      `${bucket}/types/new`,
      `${bucket}/media`,
      `${bucket}/webhooks`,
      `${bucket}/users`,
    ];
    const found: string[] = [];
    for (const path of pages) {
      await visit(path);
      found.push(...(await violationsInBothSchemes()).map((v) => `${path}: ${v}`));
    }
    assert.deepEqual(found, []);
  });

  it('makes "Skip to content" the first Tab stop, moving focus to the main region', async () => {
    for (const path of ['/studio/', `${bucket}/objects/pages/${s.homeId}`]) {
      await visit(path);
      await s.page.keyboard.press('Tab');
      const first = s.page.getByRole('link', { name: 'Skip to content' });
      assert.equal(await first.evaluate((el) => el === document.activeElement), true, path);
      await s.page.keyboard.press('Enter');
      assert.equal(await s.page.evaluate(() => document.activeElement?.tagName), 'MAIN', path);
    }
    // The next Tab stop is inside the main region, past the bars and the navigation.
    await s.page.keyboard.press('Tab');
    assert.equal(await s.page.evaluate(() => document.activeElement?.closest('main') !== null), true);
  });

  it('opens the keyboard shortcuts with ? and the shell button; Escape closes them', async () => {
    await visit(`${bucket}/objects/pages`);
    const help = s.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    assert.equal(await help.isVisible(), false);
    await s.page.keyboard.press('?');
    await help.waitFor();
    for (const action of ['Save the Object being edited', 'Show these keyboard shortcuts', 'Close a dialog'])
      await help.getByText(action).waitFor();
    assert.deepEqual(await seriousViolations(s.page), []);
    await s.page.screenshot({ path: `${SHOTS}/shortcuts-desktop.png` });
    await s.page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });

    // Typed into a text field, ? is only a character.
    const search = s.page.getByRole('searchbox').first();
    await search.fill('');
    await search.press('?');
    assert.equal(await help.isVisible(), false);
    assert.equal(await search.inputValue(), '?');

    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.emulateMedia({ colorScheme: 'dark' });
    await s.page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await help.waitFor();
    await s.page.screenshot({ path: `${SHOTS}/shortcuts-phone-dark.png` });
    await s.page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await s.page.screenshot({ path: `${SHOTS}/objects-phone-dark.png`, fullPage: true });
    await s.page.setViewportSize({ width: 1280, height: 900 });
    await visit(`${bucket}/objects/pages/${s.homeId}`);
    await s.page.screenshot({ path: `${SHOTS}/editor-desktop-dark.png`, fullPage: true });
    await s.page.emulateMedia({ colorScheme: 'light' });
  });

  it('logged no console error in the whole session, refused requests included', () => {
    assert.deepEqual(s.consoleErrors, []);
  });
});
