import type { Resource } from '../routes/access.js';

/** Bucket roles, most to least powerful. */
export const ROLES = ['admin', 'developer', 'editor', 'contributor'] as const;
export type Role = (typeof ROLES)[number];
export const PERMISSIONS = ['users', 'settings', 'sort_metafields'] as const;

export interface Grant {
  role: Role;
  additional_permissions: readonly string[];
}

/**
 * The role table (docs/accounts.md, "Accounts and roles"): null when allowed, otherwise why not. Contributors
 * are let through to Objects here; which Object types they may touch is checked with the request.
 */
export function roleRefusal(grant: Grant, resource: Resource, write: boolean): string | null {
  const { role } = grant;
  const has = (p: string) => grant.additional_permissions.includes(p);
  if (role === 'admin') return null;
  // Any user of the Bucket may read its Extensions (their pages are its tools); only admins manage them.
  if (resource === 'extensions')
    return write ? `the ${role} role may not manage Extensions (admin access is needed)` : null;
  if (resource === 'users') {
    return has('users') ? null : `the ${role} role may not manage the Bucket's users (admin, or the users permission)`;
  }
  if (role === 'developer') return null;
  // A webhook sends the content of every type it subscribes to, drafts included, to an endpoint
  // its editor picks, and its delivery log keeps those bodies: not for a role held to some types.
  if (resource === 'webhooks' && role === 'contributor') {
    return 'the contributor role may not manage webhooks: they carry Objects of every type and media';
  }
  if (resource === 'webhooks' || resource === 'settings') {
    return has('settings') ? null : `the ${role} role may not change the Bucket's settings and webhooks`;
  }
  if (resource === 'object_types' && write) {
    if (role === 'editor' && has('sort_metafields')) return null;
    return `the ${role} role may not change Object types`;
  }
  if (role === 'editor' || resource === 'objects' || resource === 'object_types') return null;
  return `the contributor role is limited to Objects of its Object types`;
}

/** Whether role `a` ranks above role `b` (ROLES lists them most powerful first). */
export function outranks(a: Role, b: Role): boolean {
  return ROLES.indexOf(a) < ROLES.indexOf(b);
}
