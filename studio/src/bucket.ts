import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { api, ApiError, v3 } from './api';
import type { Credential } from './session';
import type { ObjectType, Role } from './types';

/** What Studio knows about the signed-in user's place in one Bucket. */
export interface BucketInfo {
  slug: string;
  /** A member's role; a write key can do what an admin can except manage users. */
  role: Role | 'key';
  /** publishing_restrictions: draft_only — Studio shows no Publish button then. */
  draftOnly: boolean;
  /** The Object types the user may work with (a contributor's own, everyone else all). */
  types: ObjectType[];
  reloadTypes: () => Promise<void>;
}

export const BucketContext = createContext<BucketInfo | null>(null);

export function useBucket(): BucketInfo {
  const info = useContext(BucketContext);
  if (!info) throw new Error('no Bucket');
  return info;
}

export async function loadTypes(slug: string): Promise<ObjectType[]> {
  const { object_types } = await api<{ object_types: ObjectType[] }>('GET', v3(slug, 'object-types'));
  return object_types;
}

/** What the signed-in user may do in the Bucket, beside the Object types. */
export type Place = Pick<BucketInfo, 'role' | 'draftOnly'> & {
  /** A contributor's Object types; null when every type is open. */
  typeScope: string[] | null;
};

/**
 * A Bucket key may do everything; an account's role and limits in each of its Buckets come with
 * the list of them (a Bucket the account is not a user of is not in it).
 */
export async function placeIn(slug: string, credential: Credential): Promise<Place> {
  if (credential.mode === 'key') return { role: 'key', draftOnly: false, typeScope: null };
  const { buckets } = await api<{
    buckets: { slug: string; role: Role; publishing_restrictions?: 'draft_only' | null; object_types?: string[] }[];
  }>('GET', '/v2/buckets');
  const found = buckets.find((b) => b.slug === slug);
  if (!found) throw new ApiError(404, `You are not a user of the Bucket ${slug}`);
  return {
    role: found.role,
    draftOnly: found.publishing_restrictions === 'draft_only',
    typeScope: found.role === 'contributor' ? (found.object_types ?? []) : null,
  };
}

/** The types the user may work with: a contributor reads every definition but touches only its own. */
export function typesIn(place: Place, all: ObjectType[]): ObjectType[] {
  const scope = place.typeScope;
  return scope === null ? all : all.filter((t) => scope.includes(t.slug));
}

export const can = {
  editTypes: (b: BucketInfo) => b.role === 'key' || b.role === 'admin' || b.role === 'developer',
  webhooks: (b: BucketInfo) => b.role === 'key' || b.role === 'admin' || b.role === 'developer',
  users: (b: BucketInfo) => b.role === 'admin',
  publish: (b: BucketInfo) => !b.draftOnly,
};
