import assert from 'node:assert/strict';
import { ADMIN, API, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

type Metafield = { key: string; title: string };

/** Metafield keys in Studio: a retitle keeps the key, a rename carries the values, a removal asks first. */
describe('Studio in a real browser: Metafield keys', function () {
  const s = studioSession(this);
  if (!s) return;
  const ids: string[] = [];

  before(async () => {
    await s
      .keyed('post', `${API}/object-types`)
      .send({
        title: 'Articles',
        slug: 'articles',
        metafields: [
          { type: 'text', key: 'summary', title: 'Summary', value: '' },
          { type: 'text', key: 'notes', title: 'Notes', value: '' },
        ],
      })
      .expect(200);
    for (const [title, metadata] of [
      ['First', { summary: 'First summary', notes: 'Check facts' }],
      ['Second', { summary: 'Second summary' }],
    ] as const) {
      const res = await s.keyed('post', `${API}/objects`).send({ title, type: 'articles', metadata }).expect(200);
      ids.push(String(res.body.object.id));
    }
    await s
      .keyed('post', `${API}/object-types`)
      .send({
        title: 'Guides',
        slug: 'guides',
        metafields: [
          {
            type: 'parent',
            key: 'byline',
            title: 'Byline',
            children: [{ type: 'text', key: 'author_name', title: 'Author name', value: '' }],
          },
          {
            type: 'repeater',
            key: 'steps',
            title: 'Steps',
            repeater_fields: [{ type: 'text', key: 'step_text', title: 'Step text', value: '' }],
          },
        ],
      })
      .expect(200);
    await s.page.goto(`${s.origin}/studio/`);
    await s.signIn(ADMIN);
  });

  const typeEditor = async () => {
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/types/articles`);
    await s.page.getByRole('heading', { name: 'Articles' }).waitFor();
  };
  const metafield = (n: number) => s.page.getByRole('group', { name: `Metafield ${String(n)}`, exact: true });
  const storedType = async () =>
    (await s.keyed('get', `${API}/object-types/articles`).expect(200)).body.object_type.metafields as Metafield[];
  const stored = async (id: string) =>
    (await s.keyed('get', `${API}/objects/${id}?status=any`).expect(200)).body.object.metadata as Record<
      string,
      unknown
    >;
  /** The value the Object editor shows for the text Metafield `label` of the first Object. */
  const shownInEditor = async (label: string) => {
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/objects/articles/${ids[0] ?? ''}`);
    return s.page.getByRole('textbox', { name: label, exact: true }).inputValue();
  };

  it('retitling a saved Metafield keeps its key and every value', async () => {
    await typeEditor();
    const key = metafield(1).getByRole('textbox', { name: 'Key', exact: true });
    assert.equal(await key.inputValue(), 'summary');
    assert.equal(await key.getAttribute('readonly'), '');
    await metafield(1).getByLabel('Title', { exact: true }).fill('Teaser');
    assert.equal(await key.inputValue(), 'summary', 'the key does not follow the title');
    await s.page.getByRole('button', { name: 'Save Object type' }).click();
    await s.page.getByText('Object type saved.').waitFor();
    assert.deepEqual((await storedType())[0], { type: 'text', key: 'summary', title: 'Teaser', value: '' });
    assert.equal((await stored(ids[0] ?? '')).summary, 'First summary');
    assert.equal(await shownInEditor('Teaser'), 'First summary');
  });

  it('retitling saved nested Metafields (a child of a parent, a field of a repeater) keeps their keys', async () => {
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/types/guides`);
    for (const [path, title, key] of [
      ['1.1', 'Writer', 'author_name'],
      ['2.1', 'Instruction', 'step_text'],
    ] as const) {
      const group = s.page.getByRole('group', { name: `Metafield ${path}`, exact: true });
      await group.getByLabel('Title', { exact: true }).fill(title);
      assert.equal(await group.getByRole('textbox', { name: 'Key', exact: true }).inputValue(), key);
    }
    await s.page.getByRole('button', { name: 'Save Object type' }).click();
    await s.page.getByText('Object type saved.').waitFor();
    const res = await s.keyed('get', `${API}/object-types/guides`).expect(200);
    const [byline, steps] = res.body.object_type.metafields as (Metafield & {
      children?: Metafield[];
      repeater_fields?: Metafield[];
    })[];
    assert.deepEqual(
      byline?.children?.map((m) => [m.key, m.title]),
      [['author_name', 'Writer']],
    );
    assert.deepEqual(
      steps?.repeater_fields?.map((m) => [m.key, m.title]),
      [['step_text', 'Instruction']],
    );
  });

  it('a new Metafield still takes its key from its title until saved', async () => {
    await typeEditor();
    await s.page.getByRole('button', { name: 'Add Metafield', exact: true }).click();
    await metafield(3).getByLabel('Title', { exact: true }).fill('Read time');
    assert.equal(await metafield(3).getByRole('textbox', { name: 'Key', exact: true }).inputValue(), 'read_time');
    await metafield(3).getByRole('button', { name: 'Remove Metafield 3' }).click();
  });

  it('renames a key through Studio, and every Object keeps its value', async () => {
    await typeEditor();
    await s.page.getByRole('button', { name: 'Rename key of Metafield 1' }).click();
    const dialog = s.page.getByRole('dialog', { name: 'Rename key of Teaser' });
    await dialog.getByRole('textbox', { name: 'New key' }).fill('teaser');
    await s.page.screenshot({ path: `${SHOTS}/desktop-metafield-rename-key.png` });
    // A taken key is refused with the API's reason, in the dialog.
    s.expectRefusal(409, `${API}/object-types/articles/metafields/summary/rename`);
    await dialog.getByRole('textbox', { name: 'New key' }).fill('notes');
    await dialog.getByRole('button', { name: 'Rename key' }).click();
    await dialog.getByText(/already has a Metafield with key 'notes'/).waitFor();
    await dialog.getByRole('textbox', { name: 'New key' }).fill('teaser');
    await dialog.getByRole('button', { name: 'Rename key' }).click();
    await s.page.getByText('Key renamed to teaser; 2 Objects changed.').waitFor();
    assert.equal(await metafield(1).getByRole('textbox', { name: 'Key', exact: true }).inputValue(), 'teaser');
    assert.deepEqual(
      (await storedType()).map((m) => m.key),
      ['teaser', 'notes'],
    );
    assert.deepEqual(await stored(ids[0] ?? ''), { teaser: 'First summary', notes: 'Check facts' });
    assert.equal((await stored(ids[1] ?? '')).teaser, 'Second summary');
    assert.equal(await shownInEditor('Teaser'), 'First summary');

    await s.page.setViewportSize({ width: 390, height: 844 });
    await typeEditor();
    await s.page.getByRole('button', { name: 'Rename key of Metafield 1' }).click();
    await s.page.getByRole('dialog', { name: 'Rename key of Teaser' }).waitFor();
    await s.page.screenshot({ path: `${SHOTS}/phone-metafield-rename-key.png` });
    await s.page.getByRole('button', { name: 'Cancel' }).click();
    await s.page.setViewportSize({ width: 1280, height: 900 });
  });

  it('removing a Metafield with values asks first, naming how many Objects have one', async () => {
    await typeEditor();
    await metafield(2).getByRole('button', { name: 'Remove Metafield 2' }).click();
    await s.page.getByRole('button', { name: 'Save Object type' }).click();
    const confirm = s.page.getByRole('alertdialog', { name: 'Remove Metafield Notes?' });
    await confirm.getByText('1 Object has a value for Notes (notes).').waitFor();
    await s.page.screenshot({ path: `${SHOTS}/desktop-metafield-remove-confirm.png` });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(
      (await storedType()).map((m) => m.key),
      ['teaser', 'notes'],
      'cancelled: nothing saved',
    );

    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.getByRole('button', { name: 'Save Object type' }).click();
    await confirm.waitFor();
    await s.page.screenshot({ path: `${SHOTS}/phone-metafield-remove-confirm.png` });
    await confirm.getByRole('button', { name: 'Remove and save' }).click();
    await s.page.getByText('Object type saved.').waitFor();
    await s.page.setViewportSize({ width: 1280, height: 900 });
    assert.deepEqual(
      (await storedType()).map((m) => m.key),
      ['teaser'],
    );
  });

  it('removing a Metafield no Object has a value for saves without asking', async () => {
    await typeEditor();
    await s.page.getByRole('button', { name: 'Add Metafield', exact: true }).click();
    await metafield(2).getByLabel('Title', { exact: true }).fill('Unused');
    await s.page.getByRole('button', { name: 'Save Object type' }).click();
    await s.page.getByText('Object type saved.').waitFor();
    await metafield(2).getByRole('button', { name: 'Remove Metafield 2' }).click();
    await s.page.getByRole('button', { name: 'Save Object type' }).click();
    await s.page.getByText('Object type saved.').waitFor();
    assert.equal(await s.page.getByRole('alertdialog').count(), 0);
    assert.deepEqual(
      (await storedType()).map((m) => m.key),
      ['teaser'],
    );
    assert.deepEqual(s.consoleErrors, []);
  });
});
