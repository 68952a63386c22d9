import assert from 'node:assert/strict';
import type { Metafield } from '../../lib/types/metafield.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';

type Api = ReturnType<typeof bucketClient>;

/** posts relates to authors at the top level and inside a repeater inside a parent. */
const postFields = (target: string): Metafield[] => [
  { type: 'object', title: 'Author', key: 'author', value: '', object_type: target },
  {
    type: 'parent',
    title: 'Credits',
    key: 'credits',
    children: [
      {
        type: 'repeater',
        title: 'Editors',
        key: 'editors',
        repeater_fields: [{ type: 'objects', title: 'People', key: 'people', value: '', object_type: target }],
        children: [
          {
            type: 'repeating_item',
            children: [{ type: 'objects', title: 'People', key: 'people', value: '', object_type: target }],
          },
        ],
      },
    ],
  },
];

/** Every object_type named anywhere in a list of Metafield definitions, in document order. */
function objectTypesIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(objectTypesIn);
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'object_type' ? [String(v)] : objectTypesIn(v)));
}

async function typeOf(api: Api, slug: string): Promise<{ metafields: Metafield[]; title: string }> {
  return (await api.get(`/object-types/${slug}`).expect(200)).body.object_type;
}

describe('renaming and deleting Object types that others refer to', () => {
  let authorId: string;
  let postId: string;
  const suite = new BucketSuite('rename', async () => {
    await suite.api.post('/object-types', { title: 'Authors' }).expect(200);
    await suite.api.post('/object-types', { title: 'Posts', metafields: postFields('authors') }).expect(200);
    authorId = (await suite.api.post('/objects', { title: 'Ann', type: 'authors' }).expect(200)).body.object.id;
    postId = (
      await suite.api
        .post('/objects', {
          title: 'First',
          type: 'posts',
          metadata: { author: authorId, credits: { editors: [{ people: [authorId] }] } },
        })
        .expect(200)
    ).body.object.id;
  });

  it('a rename updates every reference, at any depth, and the Objects of the type', async () => {
    // Cached before the rename: the rename must not leave it behind.
    await suite.api.get('/objects?query=' + encodeURIComponent('{"type":"authors"}')).expect(200);
    const res = await suite.api.patch('/object-types/authors', { slug: 'writers' }).expect(200);
    assert.equal(res.body.object_type.slug, 'writers');

    const posts = await typeOf(suite.api, 'posts');
    assert.deepEqual(objectTypesIn(posts.metafields), ['writers', 'writers', 'writers']);
    await suite.api.get('/object-types/authors').expect(404);

    const q = (type: string, status = 'published') =>
      suite.api.get(`/objects?status=${status}&query=${encodeURIComponent(JSON.stringify({ type }))}`);
    assert.equal((await q('writers').expect(200)).body.objects[0].id, authorId);
    assert.equal((await q('writers', 'any').expect(200)).body.objects[0].id, authorId);
    await q('authors').expect(404);
    const revisions = await suite.api.get(`/objects/${authorId}/revisions`).expect(200);
    assert.deepEqual(
      revisions.body.revisions.map((r: { type: string }) => r.type),
      ['writers'],
    );
    assert.equal(await suite.harness.db.collection('revisions').countDocuments({ type: 'authors' }), 0);
  });

  it('after a rename, Objects relate to the renamed type and the referring type can be edited', async () => {
    const post = await suite.api
      .post('/objects', {
        title: 'Second',
        type: 'posts',
        metadata: { author: authorId, credits: { editors: [{ people: [authorId] }] } },
      })
      .expect(200);
    assert.equal(post.body.object.metadata.author, authorId);
    await suite.api.patch(`/objects/${postId}`, { metadata: { author: authorId } }).expect(200);
    const edited = await suite.api.patch('/object-types/posts', { title: 'Articles' }).expect(200);
    assert.equal(edited.body.object_type.title, 'Articles');
    const deep = await suite.api.get(`/objects/${postId}?depth=1`).expect(200);
    assert.equal(deep.body.object.metadata.author.title, 'Ann');
  });

  it('a type that refers to itself can be renamed, and its own references follow', async () => {
    const selfRef: Metafield[] = [
      { type: 'object', title: 'Manager', key: 'manager', value: '', object_type: 'people' },
      {
        type: 'parent',
        title: 'Team',
        key: 'team',
        children: [{ type: 'objects', title: 'Reports', key: 'reports', value: '', object_type: 'people' }],
      },
    ];
    await suite.api.post('/object-types', { title: 'People', metafields: selfRef }).expect(200);
    const boss = (await suite.api.post('/objects', { title: 'Boss', type: 'people' }).expect(200)).body.object.id;
    const res = await suite.api.patch('/object-types/people', { slug: 'staff' }).expect(200);
    assert.deepEqual(objectTypesIn(res.body.object_type.metafields), ['staff', 'staff']);
    await suite.api.post('/objects', { title: 'Clerk', type: 'staff', metadata: { manager: boss } }).expect(200);
  });

  it('a rename that also sends metafields may name the type by its old or its new slug', async () => {
    await suite.api.post('/object-types', { title: 'Nodes' }).expect(200);
    const res = await suite.api
      .patch('/object-types/nodes', {
        slug: 'vertices',
        metafields: [
          { type: 'object', title: 'Parent', key: 'up', value: '', object_type: 'nodes' },
          { type: 'object', title: 'Next', key: 'next', value: '', object_type: 'vertices' },
        ],
      })
      .expect(200);
    assert.deepEqual(objectTypesIn(res.body.object_type.metafields), ['vertices', 'vertices']);
  });

  it('a rename to a slug in use is refused and changes nothing', async () => {
    const res = await suite.api.patch('/object-types/writers', { slug: 'posts' }).expect(400);
    assert.equal(res.body.code, 'slug_taken');
    assert.deepEqual(objectTypesIn((await typeOf(suite.api, 'posts')).metafields), ['writers', 'writers', 'writers']);
  });

  it('deleting a type other types refer to is a 400 naming each of them and where', async () => {
    await suite.api
      .post('/object-types', {
        title: 'Pages',
        metafields: [
          {
            type: 'parent',
            title: 'Meta',
            key: 'meta',
            children: [{ type: 'object', title: 'By', key: 'by', value: '', object_type: 'writers' }],
          },
        ],
      })
      .expect(200);
    const res = await suite.api.delete('/object-types/writers').expect(400);
    assert.equal(res.body.code, 'type_in_use');
    assert.match(res.body.message, /posts \(author, credits\.editors\.people, credits\.editors\[0\]\.people\)/);
    assert.match(res.body.message, /pages \(meta\.by\)/);
    await suite.api.get('/object-types/writers').expect(200);
    assert.equal((await suite.api.get(`/objects/${authorId}`).expect(200)).body.object.type, 'writers');
  });

  it('a type that refers only to itself can be deleted', async () => {
    await suite.api.delete('/object-types/staff').expect(200);
    await suite.api.get('/object-types/staff').expect(404);
  });
});
