import { ObjectId, type Db } from 'mongodb';
import {
  bucketsCollection,
  objectsCollection,
  publishedObjectsCollection,
  type BucketDoc,
  type ObjectDoc,
} from '../../lib/db/collections.js';
import { ensureIndexes } from '../../lib/indexes.js';
import { createBucket } from '../../lib/buckets/buckets.js';
import { loadConfig } from '../../lib/config.js';
import { DomainEvents } from '../../lib/events/domain-events.js';
import { createObjectType } from '../../lib/object-types/object-types.js';
import { prng } from './peer-data.js';

export const BUCKET_SLUG = 'bench';
export const GENRES = ['science', 'history', 'travel', 'food', 'sports', 'music', 'film', 'design'] as const;
/** The genre every benchmarked request filters on: about 1/8 of the posts, far more than one page. */
export const QUERIED_GENRE = 'science';

const TOP_CATEGORIES = 5;
const SUB_CATEGORIES = 15;
const AUTHORS = 100;
export const TOTAL_OBJECTS = 10_000;

export interface Seeded {
  bucket: BucketDoc;
  readKey: string;
  counts: Record<string, number>;
}

const WORDS =
  'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(
    ' ',
  );

/** items[i], for an index the caller computed to be in range; throws rather than seed a hole. */
function nth<T>(items: readonly T[], i: number): T {
  const item = items[i];
  if (item === undefined) throw new RangeError(`index ${i} out of range (length ${items.length})`);
  return item;
}

function sentence(rand: () => number, words: number): string {
  return Array.from({ length: words }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
}

/**
 * Types go through createObjectType so the service's own rules run and the sortable index on
 * `score` exists, exactly as a client creating them over HTTP would get.
 */
async function createTypes(db: Db, bucket: BucketDoc): Promise<void> {
  // Seeding notifies nobody: an event seam without sinks.
  const deps = { db, events: new DomainEvents(loadConfig()) };
  await createObjectType(deps, bucket, {
    title: 'Categories',
    slug: 'categories',
    metafields: [
      { type: 'text', title: 'Description', key: 'description', value: '' },
      // A hierarchy gives depth=2 a real second level: posts → sub-category → top category.
      { type: 'object', title: 'Parent', key: 'parent', value: '', object_type: 'categories' },
    ],
  });
  await createObjectType(deps, bucket, AUTHORS_TYPE);
  await createObjectType(deps, bucket, {
    ...POSTS_TYPE,
    metafields: [
      ...POSTS_TYPE.metafields,
      { type: 'objects', title: 'Categories', key: 'categories', value: '', object_type: 'categories' },
    ],
  });
}

/**
 * The stored shape (see ObjectDoc): relationships as ObjectIds, every one also listed in refs.
 * Published Objects are also copied into the live view, as publishing through the service does.
 */
export function objectDoc(
  bucketId: ObjectId,
  type: string,
  i: number,
  fields: {
    title: string;
    content: string;
    metadata: Record<string, unknown>;
    status?: 'published' | 'draft';
    at: Date;
  },
): ObjectDoc {
  const refs: ObjectId[] = [];
  for (const v of Object.values(fields.metadata)) {
    if (v instanceof ObjectId) refs.push(v);
    else if (Array.isArray(v)) refs.push(...v.filter((x): x is ObjectId => x instanceof ObjectId));
  }
  return {
    _id: new ObjectId(),
    bucket_id: bucketId,
    type,
    slug: `${type}-${i}`,
    title: fields.title,
    content: fields.content,
    locale: null,
    thumbnail: null,
    status: fields.status ?? 'published',
    metadata: fields.metadata,
    refs,
    order: i,
    created_at: fields.at,
    modified_at: fields.at,
    published_at: fields.status === 'draft' ? null : fields.at,
    created_by: null,
    modified_by: null,
  };
}

/** Empties the database and seeds one Bucket with 10,000 Objects over three related types. */

/** The posts of the benchmark's query (filter by genre, sort by score, expand the author); the peer bench seeds these. */
export const POSTS_TYPE = {
  title: 'Posts',
  slug: 'posts',
  metafields: [
    { type: 'number', title: 'Score', key: 'score', value: '', sortable: true },
    { type: 'text', title: 'Genre', key: 'genre', value: '' },
    { type: 'object', title: 'Author', key: 'author', value: '', object_type: 'authors' },
  ],
};

/** The authors every post refers to; the peer bench seeds the same type. */
export const AUTHORS_TYPE = {
  title: 'Authors',
  slug: 'authors',
  metafields: [
    { type: 'textarea', title: 'Bio', key: 'bio', value: '' },
    { type: 'number', title: 'Followers', key: 'followers', value: '' },
  ],
};

export async function seed(db: Db): Promise<Seeded> {
  await db.dropDatabase();
  await ensureIndexes(db);
  const keys = await createBucket(db, BUCKET_SLUG, { kind: 'generate' }, { kind: 'generate' });
  let bucket = (await bucketsCollection(db).findOne({ slug: BUCKET_SLUG }))!;
  await createTypes(db, bucket);
  bucket = (await bucketsCollection(db).findOne({ slug: BUCKET_SLUG }))!;

  const rand = prng(42);
  const base = Date.UTC(2025, 0, 1);
  const at = (i: number) => new Date(base + i * 60_000);

  const tops = Array.from({ length: TOP_CATEGORIES }, (_, i) =>
    objectDoc(bucket._id, 'categories', i, {
      title: `Top ${i}`,
      content: '',
      metadata: { description: sentence(rand, 8), parent: '' },
      at: at(i),
    }),
  );
  const subs = Array.from({ length: SUB_CATEGORIES }, (_, i) =>
    objectDoc(bucket._id, 'categories', TOP_CATEGORIES + i, {
      title: `Sub ${i}`,
      content: '',
      metadata: { description: sentence(rand, 8), parent: nth(tops, i % TOP_CATEGORIES)._id },
      at: at(i),
    }),
  );
  const authors = Array.from({ length: AUTHORS }, (_, i) =>
    objectDoc(bucket._id, 'authors', i, {
      title: `Author ${i}`,
      content: '',
      metadata: { bio: sentence(rand, 30), followers: Math.floor(rand() * 10_000) },
      at: at(i),
    }),
  );
  const postCount = TOTAL_OBJECTS - tops.length - subs.length - authors.length;
  const posts = Array.from({ length: postCount }, (_, i) => {
    // Posts name only sub-categories, so the top categories are reached at depth 2 only.
    const cats = new Set<ObjectId>();
    const n = 1 + Math.floor(rand() * 3);
    while (cats.size < n) cats.add(nth(subs, Math.floor(rand() * subs.length))._id);
    return objectDoc(bucket._id, 'posts', i, {
      title: `Post ${i}: ${sentence(rand, 5)}`,
      content: `<p>${sentence(rand, 60)}</p>`,
      status: rand() < 0.9 ? 'published' : 'draft',
      metadata: {
        score: Math.floor(rand() * 100_000),
        genre: nth(GENRES, Math.floor(rand() * GENRES.length)),
        author: nth(authors, Math.floor(rand() * authors.length))._id,
        categories: [...cats],
      },
      at: at(i),
    });
  });

  const all = [...tops, ...subs, ...authors, ...posts];
  const live = all.filter((d) => d.status === 'published');
  for (let i = 0; i < all.length; i += 1000) await objectsCollection(db).insertMany(all.slice(i, i + 1000));
  for (let i = 0; i < live.length; i += 1000) await publishedObjectsCollection(db).insertMany(live.slice(i, i + 1000));
  return {
    bucket,
    readKey: keys.read_key!,
    counts: {
      categories: tops.length + subs.length,
      authors: authors.length,
      posts: posts.length,
      total: all.length,
      published: live.length,
    },
  };
}
