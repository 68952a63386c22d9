import type { Collection, Db, Document, OptionalUnlessRequiredId } from 'mongodb';
import { loadConfig } from '../../lib/config.js';
import { bucketsCollection, objectsCollection, publishedObjectsCollection } from '../../lib/db/collections.js';
import { ensureIndexes } from '../../lib/indexes.js';
import { createBucket } from '../../lib/buckets/buckets.js';
import { DomainEvents } from '../../lib/events/domain-events.js';
import { createObjectType } from '../../lib/object-types/object-types.js';
import type { PeerContent } from './peer-data.js';
import { AUTHORS_TYPE, objectDoc, POSTS_TYPE } from './seed.js';

export const PEER_BUCKET_SLUG = 'peer';

const BATCH = 1000;

/** Parse keys its documents by string ids, so collections here are typed by that. */
type StringKeyed = Document & { _id: string };

async function insertInBatches<T extends Document>(
  coll: Collection<T>,
  docs: OptionalUnlessRequiredId<T>[],
): Promise<void> {
  for (let i = 0; i < docs.length; i += BATCH) await coll.insertMany(docs.slice(i, i + BATCH));
}

/**
 * The content as the service stores it: types made through the service's own rules (so the
 * sortable index on `score` exists), every Object published (a latest version plus its live copy).
 */
export async function seedService(db: Db, content: PeerContent): Promise<{ readKey: string; writeKey: string }> {
  await db.dropDatabase();
  await ensureIndexes(db);
  const keys = await createBucket(db, PEER_BUCKET_SLUG, { kind: 'generate' }, { kind: 'generate' });
  const bucket = (await bucketsCollection(db).findOne({ slug: PEER_BUCKET_SLUG }))!;
  const deps = { db, events: new DomainEvents(loadConfig()) };
  await createObjectType(deps, bucket, AUTHORS_TYPE);
  await createObjectType(deps, bucket, POSTS_TYPE);
  const authors = content.authors.map((a, i) =>
    objectDoc(bucket._id, 'authors', i, {
      title: a.title,
      content: '',
      metadata: { bio: a.bio, followers: a.followers },
      at: content.posts[0]?.at ?? new Date(0),
    }),
  );
  const posts = content.posts.map((p, i) =>
    objectDoc(bucket._id, 'posts', i, {
      title: p.title,
      content: p.content,
      metadata: { score: p.score, genre: p.genre, author: authors[p.author]!._id },
      at: p.at,
    }),
  );
  const all = [...authors, ...posts];
  await insertInBatches(objectsCollection(db), all);
  await insertInBatches(publishedObjectsCollection(db), all);
  return { readKey: keys.read_key!, writeKey: keys.write_key! };
}

/** Parse's ids: ten characters; deterministic here so runs stay comparable. */
function parseId(prefix: string, i: number): string {
  return prefix + i.toString(36).padStart(9, '0');
}

/**
 * The content as Parse Server stores it (one collection per class, pointers as `_p_<field>`
 * "Class$id" strings, `_created_at`/`_updated_at`), written with the driver before Parse starts:
 * seeding 50,000 posts through its REST API would take longer than the benchmark. The `_SCHEMA`
 * entries are what Parse itself writes when a class is created over REST. The index is the one a
 * Parse deployment would add for this query; engines that serve queries from indexes use it.
 */
export async function seedParse(db: Db, content: PeerContent): Promise<void> {
  await db.dropDatabase();
  const schema = (name: string, fields: Record<string, string>) => ({
    _id: name,
    objectId: 'string',
    updatedAt: 'date',
    createdAt: 'date',
    ...fields,
  });
  await db
    .collection<StringKeyed>('_SCHEMA')
    .insertMany([
      schema('Author', { title: 'string', bio: 'string', followers: 'number' }),
      schema('Post', { title: 'string', content: 'string', score: 'number', genre: 'string', author: '*Author' }),
    ]);
  const first = content.posts[0]?.at ?? new Date(0);
  await insertInBatches(
    db.collection<StringKeyed>('Author'),
    content.authors.map((a, i) => ({ _id: parseId('a', i), ...a, _created_at: first, _updated_at: first })),
  );
  await insertInBatches(
    db.collection<StringKeyed>('Post'),
    content.posts.map((p, i) => ({
      _id: parseId('p', i),
      title: p.title,
      content: p.content,
      score: p.score,
      genre: p.genre,
      _p_author: `Author$${parseId('a', p.author)}`,
      _created_at: p.at,
      _updated_at: p.at,
    })),
  );
  await db.collection('Post').createIndex({ genre: 1, score: -1 }, { name: 'genre_score' }, undefined);
}
