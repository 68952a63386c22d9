import type { Db } from 'mongodb';
import { BucketAdminError } from '../errors/domain-errors.js';
import { findBucketBySlug } from './buckets.js';
import { findAccountByEmail, makeAdmin } from '../accounts/store.js';

/** `bucketctl set-owner`: the account becomes an admin of the Bucket. */
export async function setOwner(db: Db, slug: string, email: string): Promise<void> {
  const bucket = await findBucketBySlug(db, slug);
  if (!bucket) throw new BucketAdminError(`Bucket "${slug}" does not exist`);
  const account = await findAccountByEmail(db, email);
  if (!account) throw new BucketAdminError(`No account has the e-mail "${email}": create it with create-account`);
  await makeAdmin(db, bucket._id, account._id);
}

/** The password for create-account/set-password: stdin with --password-stdin (first line), else none. */
export async function readPasswordFromStdin(stdin: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stdin) text += String(chunk);
  const password = text.split(/\r?\n/)[0] ?? '';
  if (password.length < 8) throw new BucketAdminError('The password read from stdin must be at least 8 characters');
  return password;
}
