import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import request from 'supertest';
import { mediaCollection } from '../../lib/store/media.js';
import { bumpGeneration } from '../../lib/cache/bucket-generation.js';
import { findBucketBySlug } from '../../lib/buckets/buckets.js';
import { validatorFor } from '../../lib/validation/ajv.js';
import { BucketSuite } from '../support/bucket-suite.js';

/*
 * Media folders as a resource, through HTTP, on the v3 paths and on the same paths under /v2:
 * list, create (title → slug), rename (media follow a new slug), delete (refused while the folder
 * holds media, unless `move_to` names where they go), the media list's `folder` filter, uploads
 * and media edits checked against the folders, and folders only media name (made before folders
 * were a resource) listed and usable.
 */

type Body = Record<string, unknown>;
/** The answer matches the schema the OpenAPI document publishes for it. */
function assertSchema(id: string, body: unknown): void {
  const validate = validatorFor(id);
  assert.ok(validate(body), `${id}: ${JSON.stringify(validate.errors)}`);
}
const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

for (const version of ['v3', 'v2'] as const) {
  describe(`media folders (${version})`, () => {
    const slug = `folders-${version}`;
    const base = `/${version}/buckets/${slug}`;
    const write = (t: request.Test) => t.set('Authorization', `Bearer ${String(suite.keys.write_key)}`);
    const get = (path: string) =>
      request(suite.harness.app).get(
        `${base}${path}${path.includes('?') ? '&' : '?'}read_key=${String(suite.keys.read_key)}`,
      );
    const post = (path: string, body: Body) => write(request(suite.harness.app).post(base + path)).send(body);
    const patch = (path: string, body: Body) => write(request(suite.harness.app).patch(base + path)).send(body);
    const del = (path: string) => write(request(suite.harness.app).delete(base + path));
    const upload = (folder?: string) => {
      const t = write(request(suite.harness.app).post(`${base}/media`)).attach('media', png, {
        filename: 'dot.png',
        contentType: 'image/png',
      });
      return folder === undefined ? t : t.field('folder', folder);
    };
    const folderOf = (res: request.Response) => res.body.folder as Body;
    const slugs = async () => ((await get('/media-folders').expect(200)).body.folders as Body[]).map((f) => f.slug);
    const inFolder = async (folder: string) => {
      const res = await get(`/media?folder=${encodeURIComponent(folder)}&props=id,folder`);
      return res.status === 404 ? [] : (res.body.media as Body[]).map((m) => m.id);
    };
    const errorOf = (res: request.Response, status: number, code: string) => {
      assert.equal(res.status, status, res.text);
      assert.deepEqual([res.body.status, res.body.code, typeof res.body.message], [status, code, 'string']);
      assertSchema('Error', res.body);
      return String(res.body.message);
    };

    /** A change made under the API (old data, a crash's leftovers): cached reads are dropped as a write would. */
    const storedDirectly = async (change: () => Promise<unknown>) => {
      await change();
      const bucket = await findBucketBySlug(suite.harness.db, slug);
      if (bucket) await bumpGeneration(suite.harness.db, bucket._id);
    };

    const suite = new BucketSuite(slug);

    it('creates a folder from its title, lists it and reads it by slug', async () => {
      const made = folderOf(await post('/media-folders', { title: 'Holiday Photos 2024' }).expect(200));
      assert.deepEqual([made.slug, made.title, made.media_count], ['holiday-photos-2024', 'Holiday Photos 2024', 0]);
      assert.match(String(made.id), /^[0-9a-f]{24}$/);
      const explicit = folderOf(await post('/media-folders', { title: 'Docs', slug: 'docs' }).expect(200));
      assert.equal(explicit.slug, 'docs');
      const list = (await get('/media-folders').expect(200)).body as Body;
      assertSchema('MediaFolderList', list);
      assertSchema('MediaFolderResponse', { folder: made });
      assert.deepEqual(
        (list.folders as Body[]).map((f) => [f.slug, f.title]),
        [
          ['docs', 'Docs'],
          ['holiday-photos-2024', 'Holiday Photos 2024'],
        ],
      );
      assert.equal(list.total, 2);
      assert.deepEqual(folderOf(await get('/media-folders/docs').expect(200)), explicit);
    });

    it('refuses a second folder with a slug the Bucket already has (400 slug_taken), derived or sent', async () => {
      const derived = errorOf(await post('/media-folders', { title: 'Holiday photos 2024!' }), 400, 'slug_taken');
      assert.match(derived, /holiday-photos-2024/);
      errorOf(await post('/media-folders', { title: 'Other', slug: 'docs' }), 400, 'slug_taken');
      // Unique per Bucket: another Bucket has its own "docs".
      const other = await suite.harness.bucket(`${slug}-other`);
      await request(suite.harness.app)
        .post(`/${version}/buckets/${other.slug}/media-folders`)
        .set('Authorization', `Bearer ${String(other.write_key)}`)
        .send({ title: 'Docs' })
        .expect(200);
      assert.deepEqual(await slugs(), ['docs', 'holiday-photos-2024']);
    });

    it('answers 400 with the error body for an empty, blank or too long title, a bad slug or an unknown field', async () => {
      const bad: Array<[Body, RegExp]> = [
        [{}, /title/],
        [{ title: '' }, /title/],
        [{ title: '   ' }, /title/],
        [{ title: 'x'.repeat(201) }, /title/],
        [{ title: 7 }, /title/],
        [{ title: 'Fine', slug: 'Bad Slug!' }, /slug/],
        [{ title: 'Fine', slug: '' }, /slug/],
        [{ title: 'Fine', slug: 'a'.repeat(101) }, /slug/],
        [{ title: 'Fine', colour: 'red' }, /colour/],
        [{ title: '!!!' }, /slug/],
      ];
      for (const [body, names] of bad) {
        const message = errorOf(await post('/media-folders', body), 400, 'invalid_body');
        assert.match(message, names, JSON.stringify(body));
      }
      errorOf(await patch('/media-folders/docs', {}), 400, 'invalid_body');
      errorOf(await patch('/media-folders/docs', { title: '' }), 400, 'invalid_body');
      errorOf(await patch('/media-folders/docs', { slug: 'No_Good' }), 400, 'invalid_body');
      assert.deepEqual(await slugs(), ['docs', 'holiday-photos-2024']);
    });

    it('uploads into a listed folder; an unknown one it declares, unless it cannot be a slug (400 naming it, nothing stored)', async () => {
      const m = (await upload('docs').expect(200)).body.media as Body;
      assert.equal(m.folder, 'docs');
      const before = await mediaCollection(suite.harness.db).countDocuments();
      const message = errorOf(await upload('No Such Folder'), 400, 'folder_unknown');
      assert.match(message, /'No Such Folder'.*lowercase letters, digits and hyphens/);
      assert.equal(await mediaCollection(suite.harness.db).countDocuments(), before);
      const declared = (await upload('covers').expect(200)).body.media as Body;
      assert.equal(declared.folder, 'covers');
      const folder = folderOf(await get('/media-folders/covers').expect(200));
      assert.deepEqual(
        [folder.slug, folder.title, folder.media_count, typeof folder.id],
        ['covers', 'covers', 1, 'string'],
      );
      // A declared folder is a folder like any other: it takes a title, and goes once empty.
      assert.equal(folderOf(await patch('/media-folders/covers', { title: 'Covers' }).expect(200)).title, 'Covers');
      await del(`/media/${String(declared.id)}`).expect(200);
      await del('/media-folders/covers').expect(200);
      // No folder at all stays allowed.
      assert.equal(((await upload().expect(200)).body.media as Body).folder, null);
    });

    it('filters the media list by folder= (with query too), and counts each folder’s media', async () => {
      const second = (await upload('holiday-photos-2024').expect(200)).body.media as Body;
      const docs = await inFolder('docs');
      assert.equal(docs.length, 1);
      assert.deepEqual(await inFolder('holiday-photos-2024'), [second.id]);
      const both = await get(`/media?folder=docs&query=${encodeURIComponent(JSON.stringify({ id: second.id }))}`);
      errorOf(both, 404, 'no_match');
      errorOf(await get('/media?folder=nowhere'), 404, 'no_match');
      const counts = ((await get('/media-folders').expect(200)).body.folders as Body[]).map((f) => [
        f.slug,
        f.media_count,
      ]);
      assert.deepEqual(counts, [
        ['docs', 1],
        ['holiday-photos-2024', 1],
      ]);
    });

    it('moves media with PATCH only into a listed folder', async () => {
      const [id] = await inFolder('docs');
      const message = errorOf(await patch(`/media/${String(id)}`, { folder: 'elsewhere' }), 400, 'folder_unknown');
      assert.match(message, /'elsewhere'/);
      assert.deepEqual(await inFolder('docs'), [id]);
    });

    it('renames: a new title keeps the slug; a new slug takes the folder’s media along', async () => {
      const titled = folderOf(await patch('/media-folders/holiday-photos-2024', { title: 'Trips' }).expect(200));
      assert.deepEqual([titled.slug, titled.title], ['holiday-photos-2024', 'Trips']);
      const ids = await inFolder('holiday-photos-2024');
      const moved = folderOf(await patch('/media-folders/holiday-photos-2024', { slug: 'trips' }).expect(200));
      assert.deepEqual([moved.slug, moved.title, moved.media_count, moved.id], ['trips', 'Trips', 1, titled.id]);
      assert.deepEqual(await inFolder('trips'), ids);
      assert.deepEqual(await inFolder('holiday-photos-2024'), []);
      errorOf(await get('/media-folders/holiday-photos-2024'), 404, 'folder_not_found');
      // Uploads name the folder by its new slug.
      await upload('trips').expect(200);
      errorOf(await patch('/media-folders/trips', { slug: 'docs' }), 400, 'slug_taken');
      errorOf(await patch('/media-folders/nowhere', { title: 'X' }), 404, 'folder_not_found');
    });

    it('refuses to delete a folder holding media unless move_to names another folder', async () => {
      const message = errorOf(await del('/media-folders/trips'), 400, 'folder_has_media');
      assert.match(message, /'trips'.*2 media/);
      const tripIds = await inFolder('trips');
      assert.equal(tripIds.length, 2);
      errorOf(await del('/media-folders/trips?move_to=nowhere'), 400, 'folder_unknown');
      errorOf(await del('/media-folders/trips?move_to=trips'), 400, 'invalid_parameter');
      assert.deepEqual(await slugs(), ['docs', 'trips']);

      await del('/media-folders/trips?move_to=docs').expect(200);
      assert.deepEqual(await slugs(), ['docs']);
      const docs = await inFolder('docs');
      assert.deepEqual(
        [...tripIds].sort().filter((id) => docs.includes(id)),
        [...tripIds].sort(),
      );
      errorOf(await del('/media-folders/trips'), 404, 'folder_not_found');

      await post('/media-folders', { title: 'Empty' }).expect(200);
      const done = await del('/media-folders/empty').expect(200);
      assert.match(String(done.body.message), /empty/);
      assert.deepEqual(await slugs(), ['docs']);
    });

    it('lists folders that only media name (stored before folders were declared) and lets them be used and declared', async () => {
      const [id] = await inFolder('docs');
      await storedDirectly(() =>
        mediaCollection(suite.harness.db).updateOne(
          { _id: new ObjectId(String(id)) },
          { $set: { folder: 'Old Pics' } },
        ),
      );
      const listed = ((await get('/media-folders').expect(200)).body.folders as Body[]).find(
        (f) => f.slug === 'Old Pics',
      );
      assertSchema('MediaFolder', listed);
      assert.deepEqual(listed, {
        id: null,
        slug: 'Old Pics',
        title: 'Old Pics',
        media_count: 1,
        created_at: null,
        modified_at: null,
      });
      assert.equal(folderOf(await get(`/media-folders/${encodeURIComponent('Old Pics')}`).expect(200)).media_count, 1);
      // Existing clients keep uploading into it, and filtering by it.
      await upload('Old Pics').expect(200);
      assert.equal((await inFolder('Old Pics')).length, 2);
      assert.ok((await inFolder('Old Pics')).includes(String(id)));
      // Renaming declares it, and its media follow the new slug.
      const declared = folderOf(
        await patch(`/media-folders/${encodeURIComponent('Old Pics')}`, {
          title: 'Old pictures',
          slug: 'old-pics',
        }).expect(200),
      );
      assert.deepEqual([declared.slug, declared.title, declared.media_count], ['old-pics', 'Old pictures', 2]);
      assert.match(String(declared.id), /^[0-9a-f]{24}$/);
      assert.equal((await inFolder('old-pics')).length, 2);
      // Creating one with the slug media already use declares it too.
      await storedDirectly(() =>
        mediaCollection(suite.harness.db).updateOne({ _id: new ObjectId(String(id)) }, { $set: { folder: 'legacy' } }),
      );
      const made = folderOf(await post('/media-folders', { title: 'Legacy', slug: 'legacy' }).expect(200));
      assert.deepEqual([made.slug, made.media_count], ['legacy', 1]);
    });

    it('finishes a rename that stopped before its media were moved, on the next folder request', async () => {
      const bucket = await findBucketBySlug(suite.harness.db, slug);
      const ids = await inFolder('legacy');
      // The state a crash leaves between the folder's new slug and its media's.
      await storedDirectly(() =>
        suite.harness.db
          .collection('media_folders')
          .updateOne({ bucket_id: bucket?._id, slug: 'legacy' }, { $set: { slug: 'vintage', moving_from: 'legacy' } }),
      );
      const listed = await slugs();
      assert.ok(listed.includes('vintage') && !listed.includes('legacy'), listed.join());
      assert.deepEqual(await inFolder('vintage'), ids);
      const stored = await suite.harness.db
        .collection('media_folders')
        .findOne({ bucket_id: bucket?._id, slug: 'vintage' });
      assert.equal(stored?.moving_from, undefined);
    });

    it('reads with the read key and writes with the write key only', async () => {
      errorOf(await request(suite.harness.app).get(`${base}/media-folders`), 401, 'unauthorized');
      errorOf(await request(suite.harness.app).get(`${base}/media-folders/old-pics`), 401, 'unauthorized');
      const withRead = (t: request.Test) => t.set('Authorization', `Bearer ${String(suite.keys.read_key)}`);
      errorOf(
        await withRead(request(suite.harness.app).post(`${base}/media-folders`)).send({ title: 'No' }),
        401,
        'unauthorized',
      );
      errorOf(
        await withRead(request(suite.harness.app).patch(`${base}/media-folders/old-pics`)).send({ title: 'No' }),
        401,
        'unauthorized',
      );
      errorOf(await withRead(request(suite.harness.app).delete(`${base}/media-folders/old-pics`)), 401, 'unauthorized');
      assert.equal(folderOf(await get('/media-folders/old-pics').expect(200)).title, 'Old pictures');
    });
  });
}
