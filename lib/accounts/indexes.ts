import type { Db } from 'mongodb';
import { accountsCollection, membersCollection } from './store.js';

export async function ensureAccountIndexes(db: Db): Promise<void> {
  await accountsCollection(db).createIndex({ email_key: 1 }, { unique: true, name: 'email_unique' }, undefined);
  await membersCollection(db).createIndex(
    { bucket_id: 1, account_id: 1 },
    { unique: true, name: 'bucket_account_unique' },
    undefined,
  );
  await membersCollection(db).createIndex({ account_id: 1 }, { name: 'account' }, undefined);
}
