import request from 'supertest';
import type { Harness } from './harness.js';
import { findBucketBySlug } from '../../lib/buckets/buckets.js';
import { accountsCollection, insertAccount, makeAdmin, membersCollection } from '../../lib/accounts/store.js';
import { hashPassword } from '../../lib/accounts/password.js';
import type { MemberEdit, MemberSettings } from '../../lib/accounts/user-input.js';

export const PASSWORD = 'correct horse battery';

/**
 * The timeout of a test that checks passwords: each login, hash or password check is one scrypt
 * derivation of 128 MiB, about 0.8 s on an idle core and ten times that or more beside other
 * CPU-bound work, and a test here does up to a dozen of them.
 */
export const PASSWORD_WORK_TIMEOUT_MS = 180_000;

/**
 * PASSWORD hashed once per process by the service's own function: each hash costs 128 MiB of
 * scrypt, which on a busy machine is seconds, and the accounts the tests make need not differ.
 */
let passwordHash: Promise<string> | null = null;

/** An account with PASSWORD; the Bucket's admin when `adminOf` is given. */
export async function account(h: Harness, email: string, adminOf?: string): Promise<string> {
  const a = await insertAccount(h.db, { email, first_name: 'Ada', last_name: 'L', password: null });
  passwordHash ??= hashPassword(PASSWORD);
  await accountsCollection(h.db).updateOne({ _id: a._id }, { $set: { password_hash: await passwordHash } });
  if (adminOf !== undefined) {
    const bucket = await findBucketBySlug(h.db, adminOf);
    if (!bucket) throw new Error(`no bucket ${adminOf}`);
    await makeAdmin(h.db, bucket._id, a._id);
  }
  return a._id.toHexString();
}

export async function tokenOf(h: Harness, email: string, version: 'v1' | 'v2' = 'v2'): Promise<string> {
  const res = await request(h.app).post(`/${version}/authenticate`).send({ email, password: PASSWORD }).expect(200);
  return (res.body as { token: string }).token;
}

/**
 * A new account with PASSWORD that is a member of the Bucket: no publishing restriction, extra
 * permission or type limit unless `settings` name one. Its id.
 */
export async function member(h: Harness, slug: string, email: string, settings: MemberEdit): Promise<string> {
  const id = await account(h, email);
  await setMember(h, slug, id, {
    publishing_restrictions: null,
    additional_permissions: [],
    object_types: [],
    ...settings,
  });
  return id;
}

/** Puts the account in the Bucket with these settings directly (the users routes are tested apart). */
export async function setMember(h: Harness, slug: string, accountId: string, settings: MemberSettings): Promise<void> {
  const bucket = await findBucketBySlug(h.db, slug);
  if (!bucket) throw new Error(`no bucket ${slug}`);
  const { ObjectId } = await import('mongodb');
  const now = new Date();
  await membersCollection(h.db).updateOne(
    { bucket_id: bucket._id, account_id: new ObjectId(accountId) },
    { $set: { ...settings, modified_at: now }, $setOnInsert: { _id: new ObjectId(), created_at: now } },
    { upsert: true },
  );
}
