/** Seeding for the migration benchmark (migrate.ts): not what is measured. */
import { randomBytes } from 'node:crypto';
import { ObjectId, type Db } from 'mongodb';
import { loadConfig } from '../../lib/config.js';
import {
  objectsCollection,
  publishedObjectsCollection,
  revisionsCollection,
  type BucketDoc,
  type ObjectDoc,
  type RevisionDoc,
} from '../../lib/db/collections.js';
import { storeStream } from '../../lib/media/store-stream.js';
import { createBucket, findBucketBySlug } from '../../lib/buckets/buckets.js';
import { DomainEvents } from '../../lib/events/domain-events.js';
import { createMedia } from '../../lib/media/media.js';
import { createObjectType } from '../../lib/object-types/object-types.js';

const MB = 1024 * 1024;
const MEDIA_FILES = 20;

const POST_FIELDS = [
  { type: 'text', title: 'Headline', key: 'headline', value: '' },
  { type: 'markdown', title: 'Body', key: 'body', value: '' },
  { type: 'number', title: 'Rank', key: 'rank', value: '' },
  { type: 'check-boxes', title: 'Tags', key: 'tags', value: [], options: [{ value: 'a' }, { value: 'b' }] },
  { type: 'file', title: 'Image', key: 'image', value: '' },
  { type: 'object', title: 'Author', key: 'author', value: '', object_type: 'authors' },
  { type: 'parent', title: 'SEO', key: 'seo', children: [{ type: 'text', title: 'Title', key: 'title', value: '' }] },
];

/**
 * A Bucket of `objects` Objects (one revision each, a draft over the live version for every
 * tenth) and `mediaMb` MB of media in 20 files. Objects go in by bulk inserts, in the shapes
 * the service stores: seeding is not what is measured.
 */
export async function seed(db: Db, slug: string, objects: number, mediaMb: number): Promise<void> {
  const config = loadConfig({});
  const deps = { db, events: new DomainEvents(config) };
  await createBucket(db, slug, { kind: 'none' }, { kind: 'none' });
  const bucket = (await findBucketBySlug(db, slug)) as BucketDoc;
  await createObjectType(deps, bucket, { title: 'Authors', slug: 'authors' });
  await createObjectType(deps, bucket, { title: 'Posts', slug: 'posts', metafields: POST_FIELDS });
  const names: string[] = [];
  const fileBytes = Math.floor((mediaMb * MB) / MEDIA_FILES);
  for (let i = 0; i < MEDIA_FILES; i++) {
    function* bytes() {
      for (let left = fileBytes; left > 0; left -= MB) yield randomBytes(Math.min(MB, left));
    }
    const stored = await storeStream(db, bytes(), {
      bucketId: bucket._id,
      originalName: `file-${i}.bin`,
      claimedType: 'application/octet-stream',
      maxBytes: Infinity,
      discard: () => undefined,
    });
    await createMedia(deps, bucket, stored, { folder: null, alt_text: '', metadata: {}, trigger_webhook: false });
    names.push(stored.name);
  }
  const authors = Array.from({ length: 50 }, () => new ObjectId());
  const t0 = Date.now();
  for (let start = 0; start < objects; start += 1000) {
    const batch: ObjectDoc[] = [];
    const revisions: RevisionDoc[] = [];
    for (let i = start; i < Math.min(objects, start + 1000); i++) {
      const isAuthor = i < authors.length;
      const at = new Date(t0 + i);
      const doc: ObjectDoc = {
        _id: isAuthor ? (authors[i] as ObjectId) : new ObjectId(),
        bucket_id: bucket._id,
        type: isAuthor ? 'authors' : 'posts',
        slug: `object-${i}`,
        title: `Object ${i}`,
        content: `<p>${'Lorem ipsum dolor sit amet. '.repeat(8)}</p>`,
        locale: null,
        thumbnail: null,
        status: 'published',
        metadata: isAuthor
          ? {}
          : {
              headline: `Headline ${i}`,
              body: '# Title\n\n' + 'Some text. '.repeat(20),
              rank: i,
              tags: i % 2 ? ['a'] : ['a', 'b'],
              image: names[i % names.length],
              author: authors[i % authors.length],
              seo: { title: `SEO ${i}` },
            },
        refs: isAuthor ? [] : [authors[i % authors.length] as ObjectId],
        order: at.getTime(),
        created_at: at,
        modified_at: at,
        published_at: at,
        created_by: null,
        modified_by: null,
      };
      batch.push(doc);
      revisions.push({ ...doc, _id: new ObjectId(), object_id: doc._id, created_at: at, reason: 'create' });
      if (i % 10 === 0 && !isAuthor) {
        const later = new Date(at.getTime() + 3_600_000);
        const draft = { ...doc, status: 'draft' as const, title: `${doc.title} (draft)`, modified_at: later };
        revisions.push({ ...draft, _id: new ObjectId(), object_id: doc._id, created_at: later, reason: 'draft' });
        await publishedObjectsCollection(db).insertOne(doc);
        batch[batch.length - 1] = draft;
      }
    }
    await objectsCollection(db).insertMany(batch);
    await publishedObjectsCollection(db).insertMany(batch.filter((d) => d.status === 'published'));
    await revisionsCollection(db).insertMany(revisions);
  }
}
