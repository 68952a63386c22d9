import express, { type Express } from 'express';
import type { Db, Filter, ObjectId } from 'mongodb';
import { publishedObjectsCollection, type ObjectDoc } from '../../lib/db/collections.js';

/**
 * The floor the service is compared with: the fastest correct answer to the benchmarked request
 * a hand-written handler could give on the same storage, with no bucket lookup, authentication,
 * filter validation, rendering or cache. One flat filter, the page and its count at once, and
 * with `expand=1` the authors of the page in one `_id: {$in}` read (served by the `_id` index on
 * any engine), kept only when they belong to the Bucket. The Bucket id is resolved once at
 * start-up, as a single-tenant app would hard-code it. It reads the collection of live versions,
 * as the service does for status=published.
 */
export function createBaselineApp(db: Db, bucketId: ObjectId): Express {
  const app = express();
  app.disable('x-powered-by');
  const objects = publishedObjectsCollection(db);
  app.get('/posts', async (req, res) => {
    const genre = req.query.genre;
    if (typeof genre !== 'string') {
      res.status(400).json({ error: 'genre must be given once' });
      return;
    }
    // The most selective field first: an engine matching fields as written stops at the first miss.
    const filter: Filter<ObjectDoc> = { 'metadata.genre': genre, type: 'posts', bucket_id: bucketId };
    const [docs, total] = await Promise.all([
      objects.find(filter).sort({ 'metadata.score': -1, _id: -1 }).limit(100).toArray(),
      objects.countDocuments(filter),
    ]);
    if (req.query.expand === '1') await expandAuthors(db, bucketId, docs);
    res.json({ objects: docs, total });
  });
  return app;
}

async function expandAuthors(db: Db, bucketId: ObjectId, docs: ObjectDoc[]): Promise<void> {
  const ids = new Map<string, ObjectId>();
  for (const d of docs) {
    const author = d.metadata.author as ObjectId | undefined;
    if (author) ids.set(author.toHexString(), author);
  }
  const found = await publishedObjectsCollection(db)
    .find({ _id: { $in: [...ids.values()] } })
    .toArray();
  const byId = new Map(found.filter((a) => a.bucket_id.equals(bucketId)).map((a) => [a._id.toHexString(), a]));
  for (const d of docs) {
    const author = d.metadata.author as ObjectId | undefined;
    if (author) d.metadata.author = byId.get(author.toHexString()) ?? null;
  }
}
