import { ObjectId, type Db } from 'mongodb';
import { findMember } from './store.js';

/** Whether the account may only save drafts in the Bucket (publishing_restrictions: draft_only). */
export async function isDraftOnly(db: Db, bucketId: ObjectId, accountId: string): Promise<boolean> {
  if (!ObjectId.isValid(accountId)) return false;
  const member = await findMember(db, bucketId, new ObjectId(accountId));
  return member?.publishing_restrictions === 'draft_only';
}
