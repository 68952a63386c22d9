import assert from 'node:assert/strict';
import { roleRefusal } from '../../lib/accounts/roles.js';
import type { Resource } from '../../lib/routes/access.js';

describe('roleRefusal', () => {
  const grant = (role: 'admin' | 'developer' | 'editor' | 'contributor', extra: string[] = []) => ({
    role,
    additional_permissions: extra,
  });
  it('follows the role table, write and read', () => {
    const resources: Resource[] = ['bucket', 'objects', 'media', 'object_types', 'webhooks', 'settings', 'users'];
    const allowed = (g: ReturnType<typeof grant>, write: boolean) =>
      resources.filter((r) => roleRefusal(g, r, write) === null);
    assert.deepEqual(allowed(grant('admin'), true), resources);
    assert.deepEqual(
      allowed(grant('developer'), true),
      resources.filter((r) => r !== 'users'),
    );
    assert.deepEqual(allowed(grant('developer', ['users']), true), resources);
    assert.deepEqual(allowed(grant('editor'), true), ['bucket', 'objects', 'media']);
    assert.deepEqual(allowed(grant('editor'), false), ['bucket', 'objects', 'media', 'object_types']);
    assert.deepEqual(allowed(grant('editor', ['sort_metafields']), true), [
      'bucket',
      'objects',
      'media',
      'object_types',
    ]);
    assert.deepEqual(allowed(grant('editor', ['settings']), true), [
      'bucket',
      'objects',
      'media',
      'webhooks',
      'settings',
    ]);
    assert.deepEqual(allowed(grant('contributor'), true), ['objects']);
    assert.deepEqual(allowed(grant('contributor'), false), ['objects', 'object_types']);
    // Webhooks carry (and their delivery log keeps) content of every type: not for a type-limited role.
    assert.deepEqual(allowed(grant('contributor', ['settings']), true), ['objects', 'settings']);
    assert.deepEqual(allowed(grant('contributor', ['settings']), false), ['objects', 'object_types', 'settings']);
    assert.match(roleRefusal(grant('contributor', ['settings']), 'webhooks', false) ?? '', /may not manage webhooks/);
  });
});
