import { ObjectId, type Collection, type Db } from 'mongodb';
import { BucketAdminError } from '../errors/domain-errors.js';
import { isDuplicateKey } from '../errors/mongo-errors.js';
import { readOptions } from '../db/service-db.js';
import { hashPassword } from './password.js';
import type { Role } from './roles.js';

export const PROFILE_FIELDS = [
  'username',
  'bio',
  'website',
  'twitter',
  'linkedin',
  'github',
  'company',
  'location',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];

/** An account. `password_hash` null: added to a Bucket by e-mail, password not set yet (pending). */
export interface AccountDoc {
  _id: ObjectId;
  email: string;
  /** Lower-cased, unique: e-mail addresses are matched without regard to case. */
  email_key: string;
  first_name: string;
  last_name: string;
  profile: Partial<Record<ProfileField, string>>;
  password_hash: string | null;
  /** Bumped by every password change; tokens carry it, so older tokens stop working. */
  password_version: number;
  created_at: Date;
  modified_at: Date;
}

/** An account's place in one Bucket. */
export interface MemberDoc {
  _id: ObjectId;
  bucket_id: ObjectId;
  account_id: ObjectId;
  role: Role;
  publishing_restrictions: 'draft_only' | null;
  additional_permissions: string[];
  object_types: string[];
  created_at: Date;
  modified_at: Date;
}

export function accountsCollection(db: Db): Collection<AccountDoc> {
  return db.collection<AccountDoc>('accounts');
}

export function membersCollection(db: Db): Collection<MemberDoc> {
  return db.collection<MemberDoc>('bucket_users');
}

export const emailKey = (email: string): string => email.trim().toLowerCase();

export const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

export function findAccountByEmail(db: Db, email: string): Promise<AccountDoc | null> {
  return accountsCollection(db).findOne({ email_key: emailKey(email) }, readOptions(db));
}

export function findAccountById(db: Db, id: ObjectId): Promise<AccountDoc | null> {
  return accountsCollection(db).findOne({ _id: id }, readOptions(db));
}

export interface NewAccount {
  email: string;
  first_name: string;
  last_name: string;
  profile?: Partial<Record<ProfileField, string>>;
  /** null: a pending account, which sets its password with bucketctl. */
  password: string | null;
}

export async function insertAccount(db: Db, input: NewAccount): Promise<AccountDoc> {
  const email = input.email.trim();
  if (!EMAIL_PATTERN.test(email)) throw new BucketAdminError(`"${input.email}" is not an e-mail address`);
  const now = new Date();
  const doc: AccountDoc = {
    _id: new ObjectId(),
    email,
    email_key: emailKey(email),
    first_name: input.first_name,
    last_name: input.last_name,
    profile: input.profile ?? {},
    password_hash: input.password === null ? null : await hashPassword(input.password),
    password_version: 0,
    created_at: now,
    modified_at: now,
  };
  try {
    await accountsCollection(db).insertOne(doc);
  } catch (err) {
    if (isDuplicateKey(err)) throw new BucketAdminError(`An account with e-mail "${email}" already exists`);
    throw err;
  }
  return doc;
}

/** Sets a new password; tokens issued before it no longer verify. */
export async function setPassword(db: Db, email: string, password: string): Promise<AccountDoc> {
  const hash = await hashPassword(password);
  const updated = await accountsCollection(db).findOneAndUpdate(
    { email_key: emailKey(email) },
    { $set: { password_hash: hash, modified_at: new Date() }, $inc: { password_version: 1 } },
    { returnDocument: 'after' },
  );
  if (!updated) throw new BucketAdminError(`No account has the e-mail "${email}"`);
  return updated;
}

export function findMember(db: Db, bucketId: ObjectId, accountId: ObjectId): Promise<MemberDoc | null> {
  return membersCollection(db).findOne({ bucket_id: bucketId, account_id: accountId }, readOptions(db));
}

/** Makes the account an admin of the Bucket, whatever its role there was. */
export async function makeAdmin(db: Db, bucketId: ObjectId, accountId: ObjectId): Promise<void> {
  const now = new Date();
  await membersCollection(db).updateOne(
    { bucket_id: bucketId, account_id: accountId },
    {
      $set: {
        role: 'admin',
        publishing_restrictions: null,
        additional_permissions: [],
        object_types: [],
        modified_at: now,
      },
      $setOnInsert: { _id: new ObjectId(), created_at: now },
    },
    { upsert: true },
  );
}
