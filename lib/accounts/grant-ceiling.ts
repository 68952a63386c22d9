import { outranks } from './roles.js';
import type { MemberSettings } from './user-input.js';

/**
 * The ceiling of the `users` permission: its holder manages users up to its own grant and no
 * further, so the permission never raises anyone (its holder included) above the holder. Admins
 * have no ceiling.
 */

/** What `grant` holds beyond `holder`'s own grant, in words; empty when it is within it. */
export function beyondGrant(holder: MemberSettings, grant: MemberSettings): string[] {
  if (holder.role === 'admin') return [];
  const beyond: string[] = [];
  if (outranks(grant.role, holder.role)) beyond.push(`the ${grant.role} role`);
  const permissions = grant.additional_permissions.filter((p) => !holder.additional_permissions.includes(p));
  if (permissions.length > 0)
    beyond.push(`the ${permissions.join(', ')} permission${permissions.length > 1 ? 's' : ''}`);
  // Lifting draft_only is granting the right to publish.
  if (holder.publishing_restrictions === 'draft_only' && grant.publishing_restrictions !== 'draft_only') {
    beyond.push('publishing (without draft_only)');
  }
  // A contributor holder grants only the contributor role (above), and only its own types.
  if (holder.role === 'contributor' && grant.role === 'contributor') {
    const types = grant.object_types.filter((t) => !holder.object_types.includes(t));
    if (types.length > 0) beyond.push(`the Object types ${types.join(', ')}`);
  }
  return beyond;
}

const CEILING = "the users permission grants at most its holder's own role and permissions";

/** Why `holder` may not give a user `grant`, or null. */
export function grantRefusal(holder: MemberSettings, grant: MemberSettings): string | null {
  const beyond = beyondGrant(holder, grant);
  return beyond.length === 0 ? null : `${CEILING}: it may not grant ${beyond.join(', ')}`;
}

/** Why `holder` may not edit or remove `email`, whose grant is `grant`, or null. */
export function reachRefusal(holder: MemberSettings, email: string, grant: MemberSettings): string | null {
  const beyond = beyondGrant(holder, grant);
  return beyond.length === 0
    ? null
    : `${CEILING}: it may not change or remove ${email}, who holds ${beyond.join(', ')}`;
}
