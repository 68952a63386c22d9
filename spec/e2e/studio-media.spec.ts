import assert from 'node:assert/strict';
import sharp from 'sharp';
import { seriousViolations } from '../support/browser.js';
import { ADMIN, API, png, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

interface ApiMedia {
  id: string;
  name: string;
  original_name: string;
  folder: string | null;
  alt_text: string;
  size: number;
  width?: number;
}

/**
 * Studio's media library in Debian's Chromium: rename, move, replace, alt text, and actions on a
 * selection, each checked against what the API then answers.
 */
describe('Studio in a real browser: managing media', function () {
  const s = studioSession(this);
  if (!s) return;
  /** The stored names of the two uploads, which no edit may change. */
  const stored = new Map<string, string>();

  const media = async (): Promise<ApiMedia[]> => {
    const res = await s.keyed('get', `${API}/media?useCache=false`);
    return res.status === 404 ? [] : (res.body.media as ApiMedia[]);
  };
  const one = async (id: string): Promise<ApiMedia> =>
    (await s.keyed('get', `${API}/media/${id}?useCache=false`).expect(200)).body.media as ApiMedia;
  const idOf = async (originalName: string) => {
    const found = (await media()).find((m) => m.original_name === originalName);
    assert.ok(found, `${originalName} is listed`);
    return found.id;
  };
  const card = (name: string) => s.page.locator('.media-card', { has: s.page.getByRole('link', { name }) });
  const status = (text: string) => s.page.getByRole('status').filter({ hasText: text });

  before(async () => {
    await s.keyed('post', `${API}/media-folders`).send({ title: 'Archive', slug: 'archive' }).expect(200);
    await s.page.goto(`${s.origin}/studio/`);
    await s.signIn(ADMIN);
    await s.nav().getByRole('link', { name: 'Media' }).click();
  });

  after(() => {
    assert.deepEqual(s.consoleErrors, []);
  });

  it('uploads two images', async () => {
    await s.page.getByLabel('Upload', { exact: true }).setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: await png('#cc3333') },
      { name: 'blue.png', mimeType: 'image/png', buffer: await png('#3366cc') },
    ]);
    await s.page.getByRole('link', { name: 'red.png' }).waitFor();
    await s.page.getByRole('link', { name: 'blue.png' }).waitFor();
    for (const m of await media()) stored.set(m.id, m.name);
    assert.equal(stored.size, 2);
  });

  it('saves alt text and says so', async () => {
    const alt = s.page.getByRole('textbox', { name: 'Alt text for red.png' });
    await alt.fill('A red square');
    await alt.press('Tab');
    await status('Alt text saved').waitFor();
    assert.equal((await one(await idOf('red.png'))).alt_text, 'A red square');
  });

  it('renames an item, keeping its stored name', async () => {
    const id = await idOf('blue.png');
    await s.page.getByRole('button', { name: 'Edit blue.png' }).click();
    await card('blue.png').getByRole('textbox', { name: 'Name of blue.png' }).fill('Sky.png');
    await card('blue.png').getByRole('button', { name: 'Save name' }).click();
    await s.page.getByRole('link', { name: 'Sky.png' }).waitFor();
    await status('Renamed to Sky.png').waitFor();
    const after = await one(id);
    assert.equal(after.original_name, 'Sky.png');
    assert.equal(after.name, stored.get(id));
  });

  it('moves an item to a folder', async () => {
    const id = await idOf('red.png');
    await s.page.getByRole('button', { name: 'Edit red.png' }).click();
    await s.page.getByRole('combobox', { name: 'Folder of red.png' }).selectOption('archive');
    await status('Moved to Archive').waitFor();
    await card('red.png').getByText('Folder: Archive').waitFor();
    assert.equal((await one(id)).folder, 'archive');
  });

  it('replaces a file and shows the new image under the same name', async () => {
    const id = await idOf('Sky.png');
    const green = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#22aa44' } })
      .png()
      .toBuffer();
    const replaceInput = s.page.getByLabel('Replace file of Sky.png');
    // The picker offers images only; a file that gets past it is refused by the API, shown on the card.
    s.expectRefusal(400, `${API}/media/${id}/file`);
    await replaceInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain') });
    await card('Sky.png').getByRole('alert').filter({ hasText: 'replace it with an image' }).waitFor();
    assert.equal((await one(id)).name, stored.get(id));
    await replaceInput.setInputFiles({ name: 'green.png', mimeType: 'image/png', buffer: green });
    await status('File of Sky.png replaced').waitFor();
    const after = await one(id);
    assert.equal(after.name, stored.get(id));
    assert.equal(after.size, green.length);
    assert.equal(after.width, 64);
    // The thumbnail now drawn is green: the middle pixel's colour, read back from a canvas.
    const img = card('Sky.png').locator('img');
    await s.page.waitForFunction(
      (el) => {
        const image = el as HTMLImageElement;
        if (!image.complete || image.naturalWidth === 0) return false;
        const canvas = document.createElement('canvas');
        canvas.width = image.naturalWidth;
        canvas.height = image.naturalHeight;
        const ctx = canvas.getContext('2d');
        if (!ctx) return false;
        ctx.drawImage(image, 0, 0);
        const [r, g, b] = ctx.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
        return g !== undefined && r !== undefined && b !== undefined && g > 140 && r < 80 && b < 100;
      },
      await img.elementHandle(),
    );
    assert.deepEqual(await seriousViolations(s.page), []);
    await s.page.screenshot({ path: `${SHOTS}/desktop-media-edit.png`, fullPage: true });
  });

  it('moves a selection to a folder', async () => {
    await s.page.getByRole('checkbox', { name: 'Select Sky.png' }).check();
    await s.page.getByRole('group', { name: 'Selected media' }).getByText('1 selected').waitFor();
    await s.page.getByRole('combobox', { name: 'Move selected to' }).selectOption('archive');
    await s.page.getByRole('button', { name: 'Move', exact: true }).click();
    await status('Moved 1 media item to Archive').waitFor();
    assert.deepEqual(
      (await media()).map((m) => m.folder),
      ['archive', 'archive'],
    );
  });

  it('fits a phone and shows the selection there', async () => {
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.getByRole('checkbox', { name: 'Select red.png' }).check();
    const [scroll, inner] = await s.page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    await s.page.screenshot({ path: `${SHOTS}/phone-media-manage.png`, fullPage: true });
    await s.page.setViewportSize({ width: 1280, height: 900 });
    assert.ok(scroll <= inner, `the page is ${scroll}px wide in a ${inner}px window`);
    await s.page.getByRole('checkbox', { name: 'Select red.png' }).uncheck();
  });

  it('deletes every selected item after a confirmation naming the count', async () => {
    await s.page.getByRole('checkbox', { name: 'Select all' }).check();
    assert.equal(await s.page.getByRole('checkbox', { name: 'Select red.png' }).isChecked(), true);
    assert.equal(await s.page.getByRole('checkbox', { name: 'Select Sky.png' }).isChecked(), true);
    await s.page.getByRole('button', { name: 'Delete selected' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Delete 2 media items?' });
    await dialog.waitFor();
    assert.deepEqual(await seriousViolations(s.page), []);
    await s.page.screenshot({ path: `${SHOTS}/desktop-media-delete-confirm.png` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await media()).length, 2, 'a cancelled delete deletes nothing');

    await s.page.getByRole('button', { name: 'Delete selected' }).click();
    await dialog.getByRole('button', { name: 'Delete 2 media items' }).click();
    await status('Deleted 2 media items').waitFor();
    await s.page.getByRole('link', { name: 'red.png' }).waitFor({ state: 'detached' });
    assert.deepEqual(await media(), []);
    for (const name of stored.values()) await s.keyed('get', `/files/${SLUG}/${name}`).expect(404);
  });
});
