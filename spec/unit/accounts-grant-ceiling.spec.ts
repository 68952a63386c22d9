import assert from 'node:assert/strict';
import { beyondGrant, grantRefusal, reachRefusal } from '../../lib/accounts/grant-ceiling.js';
import { outranks } from '../../lib/accounts/roles.js';
import type { MemberSettings } from '../../lib/accounts/user-input.js';

const grant = (role: MemberSettings['role'], more: Partial<MemberSettings> = {}): MemberSettings => ({
  role,
  publishing_restrictions: null,
  additional_permissions: [],
  object_types: [],
  ...more,
});

describe('accounts: the ceiling of the users permission', () => {
  const manager = grant('editor', { additional_permissions: ['users'] });

  it('ranks roles admin > developer > editor > contributor', () => {
    assert.ok(outranks('admin', 'developer') && outranks('developer', 'editor') && outranks('editor', 'contributor'));
    assert.ok(!outranks('editor', 'editor') && !outranks('contributor', 'admin'));
  });

  it('lets its holder grant its own role and permissions or less', () => {
    assert.deepEqual(beyondGrant(manager, grant('editor', { additional_permissions: ['users'] })), []);
    assert.deepEqual(beyondGrant(manager, grant('contributor', { object_types: ['posts'] })), []);
    assert.deepEqual(beyondGrant(manager, grant('editor', { publishing_restrictions: 'draft_only' })), []);
  });

  it('names each thing beyond it: a higher role, a permission it lacks, publishing, another type', () => {
    assert.deepEqual(beyondGrant(manager, grant('developer', { additional_permissions: ['settings', 'users'] })), [
      'the developer role',
      'the settings permission',
    ]);
    const drafter = grant('editor', { additional_permissions: ['users'], publishing_restrictions: 'draft_only' });
    assert.deepEqual(beyondGrant(drafter, grant('editor')), ['publishing (without draft_only)']);
    const contributor = grant('contributor', { additional_permissions: ['users'], object_types: ['posts'] });
    assert.deepEqual(beyondGrant(contributor, grant('contributor', { object_types: ['posts', 'pages'] })), [
      'the Object types pages',
    ]);
  });

  it('puts no ceiling on an admin', () => {
    assert.equal(grantRefusal(grant('admin'), grant('admin', { additional_permissions: ['settings'] })), null);
  });

  it('words its refusals with what may not be granted or whom it may not reach', () => {
    assert.match(grantRefusal(manager, grant('admin')) ?? '', /may not grant the admin role/);
    assert.match(
      reachRefusal(manager, 'dev@example.com', grant('developer')) ?? '',
      /dev@example.com, who holds the developer role/,
    );
  });
});
