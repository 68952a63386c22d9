import assert from 'node:assert/strict';
import request from 'supertest';
import { account, member, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { BucketSuite } from '../support/bucket-suite.js';

const SLUG = 'users-ceiling';
const users = `/v2/buckets/${SLUG}/users`;

/**
 * The `users` permission lets its holder manage users up to its own grant: its role or below,
 * its own permissions, never a user whose grant is beyond its own, never itself upward.
 */
describe('accounts: the users permission grants at most what its holder has', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  const ids = { owner: '', manager: '', dev: '', writer: '', sorter: '' };
  const tokens = { owner: '', manager: '' };

  const suite = new BucketSuite(SLUG, async (_api, context) => {
    context.timeout(PASSWORD_WORK_TIMEOUT_MS);
    ids.owner = await account(suite.harness, 'owner@example.com', SLUG);
    ids.manager = await member(suite.harness, SLUG, 'manager@example.com', {
      role: 'editor',
      additional_permissions: ['users'],
    });
    ids.dev = await member(suite.harness, SLUG, 'dev@example.com', { role: 'developer' });
    ids.writer = await member(suite.harness, SLUG, 'writer@example.com', { role: 'editor' });
    ids.sorter = await member(suite.harness, SLUG, 'sorter@example.com', {
      role: 'editor',
      additional_permissions: ['sort_metafields'],
    });
    tokens.owner = await tokenOf(suite.harness, 'owner@example.com');
    tokens.manager = await tokenOf(suite.harness, 'manager@example.com');
  });

  const as = (who: keyof typeof tokens, method: 'post' | 'patch' | 'delete', path: string, body?: object) => {
    const req = request(suite.harness.app)[method](path).set('Authorization', `Bearer ${tokens[who]}`);
    return body === undefined ? req : req.send(body);
  };
  const settingsOf = async (id: string) => {
    const { user } = (
      await request(suite.harness.app).get(`${users}/${id}`).set('Authorization', tokens.owner).expect(200)
    ).body;
    return { role: user.role, additional_permissions: user.additional_permissions };
  };

  function assertRefused(res: request.Response, label: string, names: RegExp): void {
    assert.equal(res.status, 403, `${label}: ${res.text}`);
    assert.equal(res.body.code, 'forbidden', label);
    assert.match(res.body.message, names, label);
  }

  it('its holder may not raise itself: no higher role, no permission it lacks', async () => {
    const before = await settingsOf(ids.manager);
    assertRefused(
      await as('manager', 'patch', `${users}/${ids.manager}`, { role: 'developer' }),
      'raise self to developer',
      /developer/,
    );
    assertRefused(
      await as('manager', 'patch', `${users}/${ids.manager}`, {
        role: 'editor',
        additional_permissions: ['users', 'settings'],
      }),
      'grant self settings',
      /settings/,
    );
    assert.deepEqual(await settingsOf(ids.manager), before);
  });

  it('its holder may not raise others above its own grant, nor add users above it', async () => {
    assertRefused(
      await as('manager', 'patch', `${users}/${ids.writer}`, { role: 'developer' }),
      'raise another to developer',
      /developer/,
    );
    assertRefused(
      await as('manager', 'patch', `${users}/${ids.writer}`, { role: 'editor', additional_permissions: ['settings'] }),
      'grant another settings',
      /settings/,
    );
    assertRefused(
      await as('manager', 'post', users, {
        first_name: 'N',
        last_name: 'U',
        email: 'new-dev@example.com',
        role: 'developer',
      }),
      'add a developer',
      /developer/,
    );
    assert.deepEqual(await settingsOf(ids.writer), { role: 'editor', additional_permissions: [] });
    const listed = await request(suite.harness.app).get(users).set('Authorization', tokens.owner).expect(200);
    assert.ok(!listed.body.users.some((u: { email: string }) => u.email === 'new-dev@example.com'));
  });

  it('its holder may not edit or remove a user whose grant is beyond its own', async () => {
    assertRefused(
      await as('manager', 'patch', `${users}/${ids.dev}`, { role: 'editor' }),
      'edit a developer',
      /developer/,
    );
    assertRefused(await as('manager', 'delete', `${users}/${ids.dev}`), 'remove a developer', /developer/);
    assertRefused(
      await as('manager', 'patch', `${users}/${ids.sorter}`, { role: 'editor', additional_permissions: [] }),
      'edit a user holding a permission it lacks',
      /sort_metafields/,
    );
    assert.deepEqual(await settingsOf(ids.dev), { role: 'developer', additional_permissions: [] });
    assert.deepEqual(await settingsOf(ids.sorter), { role: 'editor', additional_permissions: ['sort_metafields'] });
  });

  it('within its grant it still works: add an editor, grant users, lower itself; an admin grants anything', async () => {
    await as('manager', 'post', users, {
      first_name: 'C',
      last_name: 'D',
      email: 'peer@example.com',
      role: 'editor',
      additional_permissions: ['users'],
    }).expect(200);
    await as('manager', 'patch', `${users}/${ids.writer}`, {
      role: 'editor',
      publishing_restrictions: 'draft_only',
    }).expect(200);
    await as('owner', 'patch', `${users}/${ids.writer}`, {
      role: 'developer',
      additional_permissions: ['settings'],
    }).expect(200);
    assert.deepEqual(await settingsOf(ids.writer), { role: 'developer', additional_permissions: ['settings'] });
  });
});
