import assert from 'node:assert/strict';
import type { Express } from 'express';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { bucketClient } from './client.js';
import { everyMetafield } from './fixtures.js';
import { declareFolders, imageBytes, randomishBytes, upload } from './media.js';

/** What seedEveryKind made, by name. */
export interface Seeded {
  ids: Record<string, string>;
  media: Record<string, string>;
}

/**
 * A Bucket using every Metafield kind (posts: spec/support/fixtures.ts everyMetafield), with
 * relationships in a cycle (authors ↔ posts, authors → authors), media in file Metafields and a
 * thumbnail, a draft over a live version, a draft-only Object, a scheduled publish, several
 * revisions per Object and a webhook with a secret header. Built through the HTTP API only.
 */
export async function seedEveryKind(app: Express, keys: IssuedKeys): Promise<Seeded> {
  const api = bucketClient(app, keys);
  const ids: Record<string, string> = {};
  const media: Record<string, string> = {};
  const ok = async (res: Promise<{ status: number; body: Record<string, unknown> }>) => {
    const r = await res;
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const files: [string, Buffer, string, Record<string, string>][] = [
    [
      'cat',
      await imageBytes(30, 20, 'png'),
      'cat.png',
      { folder: 'animals', alt_text: 'A cat', metadata: '{"by":"me"}' },
    ],
    ['dog', await imageBytes(16, 16, 'jpeg'), 'dog.jpg', {}],
    ['doc', randomishBytes(5000, 7), 'notes.bin', {}],
  ];
  await declareFolders(app, keys, ['animals']);
  for (const [name, bytes, filename, fields] of files) {
    const res = await upload(app, keys, bytes, { filename, fields }).expect(200);
    media[name] = (res.body as { media: { name: string } }).media.name;
  }
  await ok(
    api.post('/object-types', {
      title: 'Authors',
      slug: 'authors',
      metafields: [
        { type: 'text', title: 'Name', key: 'name', value: '' },
        { type: 'file', title: 'Avatar', key: 'avatar', value: '', media_validation_type: 'image' },
        { type: 'objects', title: 'Friends', key: 'friends', value: '', object_type: 'authors' },
      ],
    }),
  );
  await ok(api.post('/object-types', { title: 'Posts', slug: 'posts', emoji: '📝', metafields: everyMetafield }));
  const authorFields = ((await ok(api.get('/object-types/authors'))) as { object_type: { metafields: unknown[] } })
    .object_type.metafields;
  await ok(
    api.patch('/object-types/authors', {
      metafields: [
        ...authorFields,
        { type: 'object', title: 'Favorite', key: 'favorite', value: '', object_type: 'posts' },
      ],
    }),
  );
  const create = async (name: string, body: Record<string, unknown>) => {
    ids[name] = ((await ok(api.post('/objects', body))) as { object: { id: string } }).object.id;
  };
  await create('ada', { title: 'Ada', type: 'authors', metadata: { name: 'Ada L', avatar: media.cat } });
  await create('bob', { title: 'Bob', type: 'authors', status: 'draft', metadata: { name: 'Bob' } });
  await create('hello', {
    title: 'Hello',
    type: 'posts',
    thumbnail: media.cat,
    content: '<p>Body</p>',
    metadata: {
      headline: 'Hello world',
      summary: 'A summary',
      body: '<b>bold</b>',
      notes: '# notes',
      colour: 'g',
      size: 'M',
      tags: ['news', 'tech'],
      featured: true,
      price: 9.5,
      launch: '2024-05-01',
      extra: { a: [1, { b: null }], s: '' },
      image: media.dog,
      author: ids.ada,
      related: [ids.ada, ids.bob],
      seo: { title: 'SEO title', weight: 3 },
      links: [
        { label: 'One', href: '/1' },
        { label: 'Two', href: '/2' },
      ],
    },
  });
  await ok(api.patch(`/objects/${ids.ada}`, { metadata: { friends: [ids.bob, ids.ada], favorite: ids.hello } }));
  await create('layered', { title: 'Layered', type: 'posts', metadata: { headline: 'First' } });
  await ok(api.post(`/objects/${ids.layered}/revisions`, { metadata: { headline: 'Second', image: media.cat } }));
  await create('sketch', { title: 'Sketch', type: 'posts', status: 'draft', metadata: { price: 1 } });
  await create('edited', { title: 'Edited', type: 'posts', metadata: { headline: 'One' } });
  await ok(api.patch(`/objects/${ids.edited}`, { title: 'Edited twice', metadata: { size: 'S' } }));
  await ok(api.patch(`/objects/${ids.edited}`, { status: 'draft', metadata: { headline: 'Draft' } }));
  await ok(api.patch(`/objects/${ids.edited}`, { status: 'published', slug: 'edited-final' }));
  await create('later', {
    title: 'Later',
    type: 'posts',
    status: 'draft',
    publish_at: Date.now() + 86_400_000,
    metadata: { author: ids.bob },
  });
  await ok(
    api.post('/webhooks', {
      title: 'Search index',
      endpoint: 'https://hooks.example.com/in',
      events: ['object.created', 'object.edited'],
      object_types: ['posts'],
      headers: { Authorization: 'Bearer header-secret-value' },
    }),
  );
  return { ids, media };
}
