import { BadRequestError } from '../errors/http-errors.js';
import { isPlainObject } from '../util/values.js';
import { PERMISSIONS, ROLES, type Role } from './roles.js';
import { EMAIL_PATTERN, PROFILE_FIELDS, type ProfileField } from './store.js';

const MAX_TEXT = 500;

export interface MemberSettings {
  role: Role;
  publishing_restrictions: 'draft_only' | null;
  additional_permissions: string[];
  object_types: string[];
}

/** A PATCH: the role, and only those other settings the body sent. */
export type MemberEdit = Pick<MemberSettings, 'role'> & Partial<Omit<MemberSettings, 'role'>>;

export interface NewUser extends MemberSettings {
  email: string;
  first_name: string;
  last_name: string;
  profile: Partial<Record<ProfileField, string>>;
}

/** `a` or `["a","b"]` (the spec allows both) → a list; problems are collected, not thrown. */
function stringList(value: unknown, name: string, allowed: readonly string[] | null, problems: string[]): string[] {
  if (value === undefined || value === null || value === '') return [];
  const list = Array.isArray(value) ? value : [value];
  const bad = list.filter((v) => typeof v !== 'string' || (allowed !== null && !allowed.includes(v)));
  if (bad.length > 0 || list.length > 100) {
    problems.push(
      allowed === null
        ? `${name} must be a string or an array of at most 100 strings`
        : `${name} must be one or more of ${allowed.join(', ')}`,
    );
    return [];
  }
  return [...new Set(list as string[])];
}

function settings(body: Record<string, unknown>, problems: string[]): MemberSettings {
  const role = body.role;
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    problems.push(`role is required and must be one of ${ROLES.join(', ')}`);
  }
  const restriction = body.publishing_restrictions;
  if (restriction !== undefined && restriction !== null && restriction !== '' && restriction !== 'draft_only') {
    problems.push('publishing_restrictions must be "draft_only" (or null for none)');
  }
  return {
    role: role as Role,
    publishing_restrictions: restriction === 'draft_only' ? 'draft_only' : null,
    additional_permissions: stringList(body.additional_permissions, 'additional_permissions', PERMISSIONS, problems),
    object_types: stringList(body.object_types, 'object_types', null, problems),
  };
}

/** A contributor edits only the types it names, so it must name some (checked on the settings it ends with). */
export function contributorTypesProblem(settings: Pick<MemberSettings, 'role' | 'object_types'>): string | null {
  return settings.role === 'contributor' && settings.object_types.length === 0
    ? 'object_types is required when role is contributor: name the Object types it may edit'
    : null;
}

function fail(problems: string[]): never {
  throw new BadRequestError(`Invalid body: ${problems.join('; ')}`, 'invalid_body', problems);
}

/**
 * The PATCH body: role required, the other settings optional; a setting the body leaves out is
 * kept as it is (null or [] sent clears it). Every problem reported at once.
 */
export function parseUserEdit(raw: unknown): MemberEdit {
  const body = isPlainObject(raw) ? raw : {};
  const problems: string[] = [];
  const parsed = settings(body, problems);
  if (problems.length > 0) fail(problems);
  const edit: MemberEdit = { role: parsed.role };
  for (const name of ['publishing_restrictions', 'additional_permissions', 'object_types'] as const) {
    if (body[name] !== undefined) Object.assign(edit, { [name]: parsed[name] });
  }
  return edit;
}

/** The POST body: names, e-mail and role required; profile fields optional strings. */
export function parseUserAdd(raw: unknown): NewUser {
  const body = isPlainObject(raw) ? raw : {};
  const problems: string[] = [];
  const text = (name: string, required: boolean): string | undefined => {
    const v = body[name];
    if (v === undefined && !required) return undefined;
    if (typeof v !== 'string' || (required && v.trim() === '') || v.length > MAX_TEXT) {
      problems.push(`${name} ${required ? 'is required and ' : ''}must be a string of at most ${MAX_TEXT} characters`);
      return undefined;
    }
    return v;
  };
  const first_name = text('first_name', true) ?? '';
  const last_name = text('last_name', true) ?? '';
  const email = text('email', true) ?? '';
  if (email !== '' && !EMAIL_PATTERN.test(email.trim())) problems.push('email must be an e-mail address');
  const profile: Partial<Record<ProfileField, string>> = {};
  for (const field of PROFILE_FIELDS) {
    const v = text(field, false);
    if (v !== undefined) profile[field] = v;
  }
  const member = settings(body, problems);
  const types = contributorTypesProblem(member);
  if (types !== null) problems.push(types);
  if (problems.length > 0) fail(problems);
  return { ...member, email: email.trim(), first_name, last_name, profile };
}
