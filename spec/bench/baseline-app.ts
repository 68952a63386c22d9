import express, { type Express } from 'express';
import type { Db, Filter, ObjectId } from 'mongodb';
import { publishedObjectsCollection, type ObjectDoc } from '../../lib/db/collections.js';

/**
 * The floor the service is compared with: the same page and count a hand-written handler would
 * run, with no bucket lookup, authentication, filter validation, rendering or cache. The Bucket
 * id is resolved once at start-up, as a single-tenant app would hard-code it. It reads the
 * collection of live versions, as the service does for status=published.
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
    const filter: Filter<ObjectDoc> = {
      bucket_id: bucketId,
      type: 'posts',
      status: 'published',
      'metadata.genre': genre,
    };
    const [docs, total] = await Promise.all([
      objects.find(filter).sort({ 'metadata.score': -1, _id: -1 }).limit(100).toArray(),
      objects.countDocuments(filter),
    ]);
    res.json({ objects: docs, total });
  });
  return app;
}
