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

/**
 * A contributor reads every type's definition but may touch only its own types' Objects; the
 * account routes do not list them, so each type is asked once: a 403 for its Objects hides it.
 */
export async function typesVisibleTo(slug: string, role: BucketInfo['role'], all: ObjectType[]): Promise<ObjectType[]> {
  if (role !== 'contributor') return all;
  const allowed = await Promise.all(
    all.map(async (t) => {
      try {
        await api('GET', v3(slug, 'objects'), {
          query: { query: JSON.stringify({ type: t.slug }), limit: 1, props: 'id', status: 'any' },
        });
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.status === 403) return false;
        if (err instanceof ApiError && err.status === 404) return true;
        throw err;
      }
    }),
  );
  return all.filter((_, i) => allowed[i]);
}

/**
 * Whether the account may only save drafts: a batch is refused whole for such an account
 * before its body is read, while for anyone else an empty batch is only a 400. Nothing is written.
 */
export async function probeDraftOnly(slug: string, credential: Credential): Promise<boolean> {
  if (credential.mode !== 'account') return false;
  try {
    await api('POST', v3(slug, 'objects/batch'), { body: { operations: [] } });
    return false;
  } catch (err) {
    return err instanceof ApiError && err.status === 403 && err.message.includes('draft_only');
  }
}

export async function roleIn(slug: string, credential: Credential): Promise<BucketInfo['role']> {
  if (credential.mode === 'key') return 'key';
  const { buckets } = await api<{ buckets: { slug: string; role: Role }[] }>('GET', '/v2/buckets');
  const found = buckets.find((b) => b.slug === slug);
  if (!found) throw new ApiError(404, `You are not a user of the Bucket ${slug}`);
  return found.role;
}

export const can = {
  editTypes: (b: BucketInfo) => b.role === 'key' || b.role === 'admin' || b.role === 'developer',
  webhooks: (b: BucketInfo) => b.role === 'key' || b.role === 'admin' || b.role === 'developer',
  users: (b: BucketInfo) => b.role === 'admin',
  publish: (b: BucketInfo) => !b.draftOnly,
};
