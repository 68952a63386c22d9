import { ObjectId, type Db } from 'mongodb';
import type { BucketDoc } from '../db/collections.js';
import { BadRequestError, NotFoundError } from '../errors/http-errors.js';
import { readOptions } from '../db/service-db.js';
import {
  accountsCollection,
  findAccountByEmail,
  insertAccount,
  membersCollection,
  type AccountDoc,
  type MemberDoc,
} from './store.js';
import { forbidden } from './request-account.js';
import { assertContributorTypes } from './member-types.js';
import { grantRefusal, reachRefusal } from './grant-ceiling.js';
import type { MemberEdit, MemberSettings, NewUser } from './user-input.js';

/** A Bucket user as the legacy users routes answer it (the spec's Bucket user table). */
export interface BucketUser extends MemberSettings {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  /** pending: added by e-mail and has not set a password yet (bucketctl set-password). */
  status: 'active' | 'pending';
  [profile: string]: unknown;
}

export function renderUser(account: AccountDoc, member: MemberDoc): BucketUser {
  return {
    ...account.profile,
    id: account._id.toHexString(),
    first_name: account.first_name,
    last_name: account.last_name,
    email: account.email,
    status: account.password_hash === null ? 'pending' : 'active',
    role: member.role,
    publishing_restrictions: member.publishing_restrictions,
    additional_permissions: member.additional_permissions,
    object_types: member.object_types,
  };
}

function userNotFound(bucket: BucketDoc, id: string): NotFoundError {
  return new NotFoundError(`User with id '${id}' not found in bucket '${bucket.slug}'`);
}

export async function listUsers(db: Db, bucket: BucketDoc): Promise<BucketUser[]> {
  const members = await membersCollection(db).find({ bucket_id: bucket._id }, readOptions(db)).toArray();
  const accounts = await accountsCollection(db)
    .find({ _id: { $in: members.map((m) => m.account_id) } }, readOptions(db))
    .toArray();
  const byId = new Map(accounts.map((a) => [a._id.toHexString(), a]));
  return members.flatMap((m) => {
    const account = byId.get(m.account_id.toHexString());
    return account ? [renderUser(account, m)] : [];
  });
}

async function memberById(db: Db, bucket: BucketDoc, id: string): Promise<{ account: AccountDoc; member: MemberDoc }> {
  if (!ObjectId.isValid(id) || id.length !== 24) throw userNotFound(bucket, id);
  const accountId = new ObjectId(id);
  const member = await membersCollection(db).findOne({ bucket_id: bucket._id, account_id: accountId }, readOptions(db));
  const account = member ? await accountsCollection(db).findOne({ _id: accountId }, readOptions(db)) : null;
  if (!member || !account) throw userNotFound(bucket, id);
  return { account, member };
}

export async function getUser(db: Db, bucket: BucketDoc, id: string): Promise<BucketUser> {
  const { account, member } = await memberById(db, bucket, id);
  return renderUser(account, member);
}

/**
 * Adds an account to the Bucket. An e-mail without an account gets a pending one, which sets its
 * password with `bucketctl set-password`; no e-mail is sent.
 */
export async function addUser(db: Db, bucket: BucketDoc, input: NewUser, by: MemberSettings): Promise<BucketUser> {
  const { email, first_name, last_name, profile, ...settings } = input;
  refuseIf(bucket, grantRefusal(by, settings));
  await assertContributorTypes(db, bucket, settings);
  const account =
    (await findAccountByEmail(db, email)) ??
    (await insertAccount(db, { email, first_name, last_name, profile, password: null }));
  const now = new Date();
  const member: MemberDoc = {
    _id: new ObjectId(),
    bucket_id: bucket._id,
    account_id: account._id,
    ...settings,
    created_at: now,
    modified_at: now,
  };
  const inserted = await membersCollection(db).updateOne(
    { bucket_id: bucket._id, account_id: account._id },
    { $setOnInsert: member },
    { upsert: true },
  );
  if (inserted.upsertedCount === 0) {
    throw new BadRequestError(
      `${email} is already a user of bucket '${bucket.slug}': edit the user instead`,
      'invalid_body',
    );
  }
  return renderUser(account, member);
}

/**
 * The caller's own grant is the ceiling of what it grants (lib/accounts/grant-ceiling.ts): the
 * `users` permission lets others manage users, not raise themselves or anyone above themselves.
 */
function refuseIf(bucket: BucketDoc, why: string | null): void {
  if (why !== null) throw forbidden(bucket.slug, why);
}

/** Refuses a change that would leave the Bucket without an admin. */
async function assertAdminRemains(db: Db, bucket: BucketDoc, member: MemberDoc, staysAdmin: boolean): Promise<void> {
  if (member.role !== 'admin' || staysAdmin) return;
  const admins = await membersCollection(db).countDocuments({ bucket_id: bucket._id, role: 'admin' }, readOptions(db));
  if (admins <= 1) throw new BadRequestError(`Bucket '${bucket.slug}' must keep at least one admin`, 'invalid_body');
}

/** Changes the role and the settings `edit` carries; the others stay as they are. */
export async function editUser(
  db: Db,
  bucket: BucketDoc,
  id: string,
  edit: MemberEdit,
  by: MemberSettings,
): Promise<BucketUser> {
  const { account, member } = await memberById(db, bucket, id);
  const next: MemberDoc = { ...member, ...edit, modified_at: new Date() };
  refuseIf(bucket, reachRefusal(by, account.email, member) ?? grantRefusal(by, next));
  await assertAdminRemains(db, bucket, member, edit.role === 'admin');
  // Types kept from before were checked when they were set; a type deleted since does not block other edits.
  if (edit.object_types !== undefined || member.role !== next.role) await assertContributorTypes(db, bucket, next);
  await membersCollection(db).replaceOne({ _id: member._id }, next);
  return renderUser(account, next);
}

/** Takes effect at once: every request reads the membership afresh (lib/middleware/load-bucket.ts). */
export async function removeUser(db: Db, bucket: BucketDoc, id: string, by: MemberSettings): Promise<void> {
  const { account, member } = await memberById(db, bucket, id);
  refuseIf(bucket, reachRefusal(by, account.email, member));
  await assertAdminRemains(db, bucket, member, false);
  await membersCollection(db).deleteOne({ _id: member._id });
}
