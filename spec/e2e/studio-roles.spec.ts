import assert from 'node:assert/strict';
import request from 'supertest';
import { account, setMember, tokenOf } from '../support/accounts.js';
import { ADMIN, API, CONTRIBUTOR, SHOTS, SLUG, studioSession } from '../support/studio-session.js';

const DEVELOPER = 'dev@studio.test';
const DRAFTER = 'drafter@studio.test';
const NO_ACCESS = 'You do not have access to this page';

interface Settings {
  email: string;
  role: string;
  publishing_restrictions: string | null;
  additional_permissions: string[];
  object_types: string[];
}

/**
 * Roles hold in Studio as in the API: the Users page shows each user's stored settings (saving
 * one unchanged changes nothing), and a draft-only editor is offered no way to take live content
 * down nor an admin page, even by URL.
 */
describe('Studio in a real browser: roles', function () {
  const s = studioSession(this);
  if (!s) return;
  let adminToken = '';
  const ids = { live: '', draft: '' };

  const settings = async (): Promise<Settings[]> => {
    const res = await request(s.h.app).get(`/v2/buckets/${SLUG}/users`).set('Authorization', adminToken).expect(200);
    return (res.body.users as Settings[])
      .map(({ email, role, publishing_restrictions, additional_permissions, object_types }) => ({
        email,
        role,
        publishing_restrictions,
        additional_permissions: [...additional_permissions].sort(),
        object_types: [...object_types].sort(),
      }))
      .sort((a, b) => a.email.localeCompare(b.email));
  };

  before(async () => {
    await s.keyed('post', `${API}/object-types`).send({ title: 'Posts', slug: 'posts', metafields: [] }).expect(200);
    await setMember(s.h, SLUG, await account(s.h, DEVELOPER), {
      role: 'developer',
      publishing_restrictions: null,
      additional_permissions: ['users', 'settings'],
      object_types: [],
    });
    await setMember(s.h, SLUG, await account(s.h, DRAFTER), {
      role: 'editor',
      publishing_restrictions: 'draft_only',
      additional_permissions: ['sort_metafields'],
      object_types: [],
    });
    const live = await s.keyed('post', `${API}/objects`).send({ title: 'Live post', type: 'posts' }).expect(200);
    ids.live = live.body.object.id;
    const draft = await s
      .keyed('post', `${API}/objects`)
      .send({ title: 'Draft post', type: 'posts', status: 'draft' })
      .expect(200);
    ids.draft = draft.body.object.id;
    adminToken = await tokenOf(s.h, ADMIN);
    await s.page.goto(`${s.origin}/studio/`);
    await s.signIn(ADMIN);
  });

  it('the Users page shows each stored role and permission, and saving every user unchanged changes nothing', async () => {
    const before = await settings();
    assert.deepEqual(
      before.map((u) => [u.email, u.role]),
      [
        [ADMIN, 'admin'],
        [CONTRIBUTOR, 'contributor'],
        [DEVELOPER, 'developer'],
        [DRAFTER, 'editor'],
      ],
    );
    await s.nav().getByRole('link', { name: 'Users' }).click();
    const formOf = (email: string) => s.page.getByRole('form', { name: `User ${email}` });
    // Roles first: a select showing the wrong role is what turned an editor into an admin.
    for (const u of before)
      assert.equal(
        await formOf(u.email)
          .getByRole('combobox', { name: `Role of ${u.email}` })
          .inputValue(),
        u.role,
        u.email,
      );
    for (const u of before) {
      const form = formOf(u.email);
      assert.equal(
        await form.getByRole('checkbox', { name: 'Drafts only' }).isChecked(),
        u.publishing_restrictions === 'draft_only',
        u.email,
      );
      for (const p of ['users', 'settings', 'sort_metafields'])
        assert.equal(
          await form.getByRole('checkbox', { name: p, exact: true }).isChecked(),
          u.additional_permissions.includes(p),
          `${u.email} ${p}`,
        );
    }
    assert.equal(await s.page.locator('form.add-user').getByRole('combobox', { name: 'Role' }).inputValue(), 'editor');
    await s.page.screenshot({ path: `${SHOTS}/roles-users-desktop.png`, fullPage: true });
    for (const u of before) {
      await s.page.getByRole('button', { name: `Save ${u.email}`, exact: true }).click();
      await s.page
        .getByRole('status')
        .filter({ hasText: `User ${u.email} edited successfully.` })
        .waitFor();
    }
    assert.deepEqual(await settings(), before);
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.screenshot({ path: `${SHOTS}/roles-users-phone.png`, fullPage: true });
    await s.page.setViewportSize({ width: 1280, height: 900 });
  });

  it('a draft-only editor is offered no way to delete or unpublish live content', async () => {
    await s.page.getByRole('button', { name: 'Sign out' }).click();
    await s.signIn(DRAFTER);
    await s.nav().getByRole('link', { name: 'Posts' }).click();
    await s.page.getByRole('checkbox', { name: 'Select Live post' }).check();
    await s.page.getByRole('group', { name: 'Selected Objects' }).waitFor();
    for (const name of ['Delete selected', 'Unpublish selected', 'Publish selected'])
      assert.equal(await s.page.getByRole('button', { name }).count(), 0, name);
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/objects/posts/${ids.live}`);
    await s.page.getByRole('button', { name: 'Save draft' }).waitFor();
    assert.equal(await s.page.getByRole('button', { name: 'Delete', exact: true }).count(), 0);
    // An Object never published is the editor's own draft to delete.
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/objects/posts/${ids.draft}`);
    await s.page.getByRole('button', { name: 'Delete', exact: true }).waitFor();
    const live = await s.keyed('get', `${API}/objects/${ids.live}`);
    assert.equal(live.status, 200);
  });

  it('an admin page reached by URL says there is no access, instead of a form', async () => {
    for (const path of ['users', 'webhooks', 'types/new', 'types/posts']) {
      await s.page.goto(`${s.origin}/studio/b/${SLUG}/${path}`);
      await s.page.getByRole('heading', { name: NO_ACCESS }).waitFor();
      assert.equal(await s.page.locator('main form').count(), 0, path);
    }
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/users`);
    await s.page.getByRole('heading', { name: NO_ACCESS }).waitFor();
    await s.page.screenshot({ path: `${SHOTS}/roles-no-access-desktop.png`, fullPage: true });
    await s.page.setViewportSize({ width: 390, height: 844 });
    await s.page.screenshot({ path: `${SHOTS}/roles-no-access-phone.png`, fullPage: true });
    await s.page.setViewportSize({ width: 1280, height: 900 });
    // The list of types stays open to everyone.
    await s.page.goto(`${s.origin}/studio/b/${SLUG}/types`);
    await s.page.getByRole('heading', { name: 'Object types' }).waitFor();
  });

  it('logged no console error along the way', () => {
    assert.deepEqual(s.consoleErrors, []);
  });
});
