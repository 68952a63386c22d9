import type { Request, Response } from 'express';
import { ObjectId, type Db } from 'mongodb';
import { objectsCollection, type BucketDoc } from '../db/collections.js';
import { readOptions } from '../db/service-db.js';
import { draftOnlyRefusal } from '../middleware/member-access.js';
import { forbidden, memberOf, viaMember } from '../accounts/request-account.js';
import { requireWrite } from '../middleware/authenticate.js';

/** One GraphQL mutation, as the checks of a REST write read it. */
export interface MutationIntent {
  body: Record<string, unknown>;
  /** The Object it edits or deletes. */
  id?: string;
  creates?: true;
  deletes?: true;
}

/**
 * The checks a REST write gets from its route declaration, for one mutation of a request let in
 * for reading: the write key (or a role that may write Objects), then a draft-only account's
 * limits, by the same functions and with the same answers as REST.
 */
export async function writeAllowed(
  db: Db,
  req: Request,
  res: Response,
  bucket: BucketDoc,
  intent: MutationIntent,
): Promise<void> {
  requireWrite(req, res, () => undefined);
  if (!viaMember(res) || memberOf(res)?.publishing_restrictions !== 'draft_only') return;
  const id = intent.id !== undefined && ObjectId.isValid(intent.id) ? new ObjectId(intent.id) : null;
  const why = await draftOnlyRefusal(db, bucket, {
    method: intent.creates ? 'POST' : intent.deletes ? 'DELETE' : 'PATCH',
    body: intent.body,
    touched: intent.creates ? { creates: true } : {},
    addressed: async () =>
      id
        ? objectsCollection(db).findOne(
            { _id: id, bucket_id: bucket._id },
            { ...readOptions(db), projection: { _id: 1, status: 1 } },
          )
        : null,
  });
  if (why !== null) throw forbidden(bucket.slug, why);
}
