import assert from 'node:assert/strict';
import request from 'supertest';
import { BucketSuite } from '../support/bucket-suite.js';

/**
 * GraphQL per Bucket (lib/graphql/): the schema made from the Bucket's Object types, reads and
 * writes through the v3 services, errors with the v3 codes.
 */
describe('GraphQL: schema, reads and writes', () => {
  const ids: Record<string, string> = {};
  const suite = new BucketSuite('gql', async (api) => {
    await api
      .post('/object-types', {
        title: 'Authors',
        slug: 'authors',
        metafields: [
          { type: 'text', title: 'Bio', key: 'bio', value: '' },
          { type: 'object', title: 'Editor', key: 'editor', object_type: 'authors', value: '' },
        ],
      })
      .expect(200);
    await api
      .post('/object-types', {
        title: 'Blog Posts',
        slug: 'blog-posts',
        metafields: [
          { type: 'text', title: 'Headline', key: 'headline', value: '' },
          { type: 'markdown', title: 'Body', key: 'body', value: '' },
          { type: 'number', title: 'Score', key: 'score', value: '' },
          { type: 'switch', title: 'Featured', key: 'featured', value: false, options: 'true,false' },
          { type: 'date', title: 'Day', key: 'day', value: '' },
          {
            type: 'select-dropdown',
            title: 'Colour',
            key: 'colour',
            value: '',
            options: [
              { key: 'r', value: 'Red' },
              { key: 'g', value: 'Green' },
            ],
          },
          { type: 'radio-buttons', title: 'Size', key: 'size', value: '', options: [{ value: 'S' }, { value: 'L' }] },
          { type: 'check-boxes', title: 'Tags', key: 'tags', value: [], options: [{ value: 'a' }, { value: 'b' }] },
          { type: 'json', title: 'Extra', key: 'extra', value: null },
          { type: 'file', title: 'Hero', key: 'hero', value: '' },
          { type: 'object', title: 'Author', key: 'author', object_type: 'authors', value: '' },
          { type: 'objects', title: 'Co-authors', key: 'co-authors', object_type: 'authors', value: [] },
          {
            type: 'parent',
            title: 'Seo',
            key: 'seo',
            children: [{ type: 'text', title: 'Title', key: 'title', value: '' }],
          },
          {
            type: 'repeater',
            title: 'Links',
            key: 'links',
            repeater_fields: [
              { type: 'text', title: 'Url', key: 'url', value: '' },
              { type: 'number', title: 'Rank', key: 'rank', value: '' },
            ],
          },
        ],
      })
      .expect(200);
    const chief = await api.post('/objects', { title: 'Chief', type: 'authors' }).expect(200);
    const boss = await api
      .post('/objects', { title: 'Boss', type: 'authors', metadata: { editor: chief.body.object.id } })
      .expect(200);
    ids.boss = boss.body.object.id;
    const ann = await api
      .post('/objects', { title: 'Ann', type: 'authors', metadata: { bio: 'Writes', editor: ids.boss } })
      .expect(200);
    ids.ann = ann.body.object.id;
    await api
      .post('/object-types', {
        title: 'Pages',
        slug: 'pages',
        localization: true,
        locales: ['en', 'fr'],
        priority_locale: 'en',
      })
      .expect(200);
    await api.post('/objects', { title: 'Home', slug: 'home', type: 'pages', locale: 'en' }).expect(200);
    await api.post('/objects', { title: 'Accueil', slug: 'home', type: 'pages', locale: 'fr' }).expect(200);
    const post = await api
      .post('/objects', {
        title: 'Hello',
        slug: 'hello',
        type: 'blog-posts',
        metadata: {
          headline: 'Hi',
          score: 4.5,
          featured: true,
          day: '2026-11-28',
          colour: 'g',
          size: 'L',
          tags: ['a'],
          extra: { deep: [1, 2] },
          author: ids.ann,
          'co-authors': [ids.ann, ids.boss],
          seo: { title: 'Seo title' },
          links: [{ url: 'https://example.com', rank: 1 }],
        },
      })
      .expect(200);
    ids.post = post.body.object.id;
    await api.post('/objects', { title: 'Draft', slug: 'draft', type: 'blog-posts', status: 'draft' }).expect(200);
  });

  const gql = (query: string, variables?: Record<string, unknown>, key: 'read' | 'write' = 'read') => {
    const { slug, read_key: readKey, write_key: writeKey } = suite.keys;
    const path = `/v3/buckets/${slug}/graphql${key === 'read' ? `?read_key=${readKey ?? ''}` : ''}`;
    const req = request(suite.harness.app).post(path).set('Accept', 'application/json');
    return (key === 'write' ? req.set('Authorization', `Bearer ${writeKey ?? ''}`) : req).send({ query, variables });
  };

  it('answers every Metafield kind typed, as the v3 read renders it', async () => {
    const res = await gql(`{
      blog_posts_by_slug(slug: "hello") {
        id title type status
        metadata {
          headline body score featured day colour { key value } size tags extra
          hero { url } author { title } co_authors { title } seo { title } links { url rank }
        }
      }
    }`).expect(200);
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    const post = res.body.data.blog_posts_by_slug;
    assert.equal(post.id, ids.post);
    assert.equal(post.type, 'blog-posts');
    assert.deepEqual(post.metadata, {
      headline: 'Hi',
      body: '',
      score: 4.5,
      featured: true,
      day: '2026-11-28',
      colour: { key: 'g', value: 'Green' },
      size: 'L',
      tags: ['a'],
      extra: { deep: [1, 2] },
      hero: null,
      author: { title: 'Ann' },
      co_authors: [{ title: 'Ann' }, { title: 'Boss' }],
      seo: { title: 'Seo title' },
      links: [{ url: 'https://example.com', rank: 1 }],
    });
  });

  it('lists with query, sort, limit and total; the read key sees published Objects only', async () => {
    const res = await gql(`{ blog_posts(sort: "created_at") { total objects { title status } } }`).expect(200);
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    assert.deepEqual(res.body.data.blog_posts, { total: 1, objects: [{ title: 'Hello', status: 'published' }] });
    const any = await gql(`{ blog_posts(status: any, sort: "-created_at", limit: 1) { total objects { title } } }`);
    assert.deepEqual(any.body.data.blog_posts, { total: 2, objects: [{ title: 'Draft' }] });
    const skipped = await gql(`{ blog_posts(status: any, sort: "-created_at", skip: 1) { objects { title } } }`);
    assert.deepEqual(skipped.body.data.blog_posts.objects, [{ title: 'Hello' }]);
    // Operators start with "$", which GraphQL literals cannot spell: the filter comes as a variable.
    const byScore = `query($q: JSON) { blog_posts(query: $q) { total } }`;
    const above = await gql(byScore, { q: { 'metadata.score': { $gt: 4 } } }).expect(200);
    assert.equal(above.body.data.blog_posts.total, 1);
    const below = await gql(byScore, { q: { 'metadata.score': { $lt: 4 } } }).expect(200);
    assert.equal(below.body.data.blog_posts.total, 0);
  });

  it('resolves relationships three levels deep', async () => {
    const res = await gql(
      `{ blog_posts { objects { metadata { author { title metadata { editor { title metadata { editor { title } } } } } } } } }`,
    );
    assert.equal(res.body.errors, undefined, JSON.stringify(res.body.errors));
    assert.deepEqual(res.body.data.blog_posts.objects[0].metadata.author, {
      title: 'Ann',
      metadata: { editor: { title: 'Boss', metadata: { editor: { title: 'Chief' } } } },
    });
  });

  it('reads one locale of a localized type, by slug and in lists', async () => {
    const fr = await gql(`{ pages_by_slug(slug: "home", locale: "fr") { title locale } }`).expect(200);
    assert.deepEqual(fr.body.data.pages_by_slug, { title: 'Accueil', locale: 'fr' });
    const en = await gql(`{ pages(locale: "en") { total objects { title } } }`).expect(200);
    assert.deepEqual(en.body.data.pages, { total: 1, objects: [{ title: 'Home' }] });
  });

  it('takes every Metafield kind in a create, typed, and stores it as the v3 write does', async () => {
    const data = {
      title: 'Every kind',
      status: 'draft',
      metadata: {
        headline: 'H',
        body: '*md*',
        score: 1.5,
        featured: true,
        day: '2026-01-02',
        colour: 'Red',
        size: 'S',
        tags: ['a', 'b'],
        extra: { any: ['json'] },
        author: ids.ann,
        co_authors: [ids.boss],
        seo: { title: 'T' },
        links: [{ url: 'https://a.example', rank: 2 }],
      },
    };
    const made = await gql(
      `mutation($d: BlogPostsCreate!) { create_blog_posts(data: $d) { id status } }`,
      { d: data },
      'write',
    ).expect(200);
    assert.equal(made.body.errors, undefined, JSON.stringify(made.body.errors));
    const id = made.body.data.create_blog_posts.id as string;
    const rest = await suite.api.get(`/objects/${id}?status=any`).expect(200);
    const { metadata } = rest.body.object;
    assert.equal(rest.body.object.status, 'draft');
    assert.deepEqual(metadata.colour, { key: 'r', value: 'Red' });
    assert.deepEqual(metadata['co-authors'], [ids.boss]);
    assert.deepEqual(metadata.links, [{ url: 'https://a.example', rank: 2 }]);
    assert.deepEqual(
      [metadata.score, metadata.featured, metadata.day, metadata.tags],
      [1.5, true, '2026-01-02', ['a', 'b']],
    );
    assert.deepEqual([metadata.seo, metadata.extra, metadata.author], [{ title: 'T' }, { any: ['json'] }, ids.ann]);
    const typed = await gql(
      `mutation { create_blog_posts(data: { title: "x", metadata: { score: "high" } }) { id } }`,
      undefined,
      'write',
    ).expect(200);
    assert.match(typed.body.errors[0].message, /Float/, 'GraphQL types the input before the v3 checks');
  });

  it('answers v3 errors with their code and status', async () => {
    const filter = '{"$where": "1"}';
    const rest = await suite.api.get(`/objects?query=${encodeURIComponent(filter)}`).expect(400);
    const bad = await gql(`query($q: JSON) { blog_posts(query: $q) { total } }`, { q: JSON.parse(filter) }).expect(200);
    assert.equal(bad.body.errors[0].extensions.code, rest.body.code);
    assert.equal(bad.body.errors[0].extensions.status, 400);
    assert.equal(bad.body.errors[0].message, rest.body.message);
    const write = await gql(`mutation { delete_blog_posts(id: "${ids.post}") }`).expect(200);
    assert.equal(write.body.errors[0].extensions.code, 'unauthorized');
    assert.equal(write.body.errors[0].extensions.status, 401);
  });

  it('creates, updates and deletes with the write key; validation answers the v3 message', async () => {
    const created = await gql(
      `mutation($d: BlogPostsCreate!) { create_blog_posts(data: $d) { id title metadata { score co_authors { id } } } }`,
      { d: { title: 'New', metadata: { score: 2, co_authors: [ids.ann] } } },
      'write',
    ).expect(200);
    assert.equal(created.body.errors, undefined, JSON.stringify(created.body.errors));
    const id = created.body.data.create_blog_posts.id as string;
    assert.equal(created.body.data.create_blog_posts.metadata.score, 2);
    const invalid = await gql(
      `mutation { update_blog_posts(id: "${id}", data: { metadata: { colour: "purple" } }) { id } }`,
      undefined,
      'write',
    ).expect(200);
    assert.equal(invalid.body.errors[0].extensions.code, 'metafield_invalid');
    assert.match(invalid.body.errors[0].message, /colour/);
    const updated = await gql(
      `mutation { update_blog_posts(id: "${id}", data: { title: "Renamed" }) { title } }`,
      undefined,
      'write',
    ).expect(200);
    assert.equal(updated.body.data.update_blog_posts.title, 'Renamed');
    const gone = await gql(`mutation { delete_blog_posts(id: "${id}") }`, undefined, 'write').expect(200);
    assert.equal(gone.body.data.delete_blog_posts, true);
    const again = await gql(`{ blog_posts_by_id(id: "${id}") { id } }`).expect(200);
    assert.equal(again.body.data.blog_posts_by_id, null);
  });

  it('refuses an operation past the limits before reading: query_too_complex', async () => {
    const aliases = Array.from({ length: 31 }, (_, i) => `a${String(i)}: object_types`).join(' ');
    const res = await gql(`{ ${aliases} }`).expect(200);
    assert.equal(res.body.errors[0].extensions.code, 'query_too_complex');
    assert.equal(res.body.data, undefined);
  });

  it('answers a wrong read key as REST does: 401', async () => {
    const res = await request(suite.harness.app)
      .post(`/v3/buckets/${suite.keys.slug}/graphql?read_key=wrong`)
      .send({ query: '{ object_types }' })
      .expect(401);
    assert.equal(res.body.status, 401);
  });
});
