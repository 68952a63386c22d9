import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';

const q = (query: unknown) => `query=${encodeURIComponent(JSON.stringify(query))}`;

describe('GET /objects: the query language and list parameters', () => {
  const ids: Record<string, string> = {};
  const suite = new BucketSuite('list', async () => {
    await suite.api
      .post('/object-types', {
        title: 'Authors',
        metafields: [{ type: 'number', title: 'Age', key: 'age', value: '' }],
      })
      .expect(200);
    await suite.api
      .post('/object-types', {
        title: 'Books',
        metafields: [
          { type: 'number', title: 'Price', key: 'price', value: '', sortable: true },
          { type: 'text', title: 'Genre', key: 'genre', value: '' },
          { type: 'object', title: 'Author', key: 'author', value: '', object_type: 'authors' },
          {
            type: 'check-boxes',
            title: 'Tags',
            key: 'tags',
            value: [],
            options: [{ value: 'a' }, { value: 'b' }, { value: 'c' }],
          },
        ],
      })
      .expect(200);
    ids.ada = (
      await suite.api.post('/objects', { title: 'Ada', type: 'authors', metadata: { age: 36 } }).expect(200)
    ).body.object.id;
    ids.bob = (
      await suite.api.post('/objects', { title: 'Bob', type: 'authors', metadata: { age: 50 } }).expect(200)
    ).body.object.id;
    const books = [
      { title: 'Alpha Book', metadata: { price: 10, genre: 'sci-fi', author: ids.ada, tags: ['a', 'b'] } },
      { title: 'Beta Book', metadata: { price: 20, genre: 'crime', author: ids.bob, tags: ['b'] } },
      { title: 'Gamma Book', metadata: { price: 30, genre: 'sci-fi', author: ids.ada, tags: ['c'] } },
      { title: 'Delta C++ Book', metadata: { price: 20, genre: 'poetry', tags: [] } },
    ];
    for (const b of books)
      ids[b.title] = (await suite.api.post('/objects', { ...b, type: 'books' }).expect(200)).body.object.id;
    await suite.api
      .post('/objects', { title: 'Draft Book', type: 'books', status: 'draft', metadata: { price: 99 } })
      .expect(200);
  });

  const titles = (res: { body: { objects: Array<{ title: string }> } }) => res.body.objects.map((o) => o.title).sort();

  it('lists published Objects with total, newest order first by default', async () => {
    const res = await suite.api.get(`/objects?${q({ type: 'books' })}`).expect(200);
    assert.equal(res.body.total, 4);
    assert.deepEqual(
      res.body.objects.map((o: { title: string }) => o.title),
      ['Delta C++ Book', 'Gamma Book', 'Beta Book', 'Alpha Book'],
    );
  });

  it('filters by metadata with comparison operators', async () => {
    assert.deepEqual(
      titles(
        await suite.api.get(`/objects?${q({ type: 'books', 'metadata.price': { $gte: 20, $lt: 30 } })}`).expect(200),
      ),
      ['Beta Book', 'Delta C++ Book'],
    );
    assert.deepEqual(
      titles(await suite.api.get(`/objects?${q({ 'metadata.genre': { $in: ['crime', 'poetry'] } })}`).expect(200)),
      ['Beta Book', 'Delta C++ Book'],
    );
    assert.deepEqual(
      titles(await suite.api.get(`/objects?${q({ 'metadata.tags': { $all: ['a', 'b'] } })}`).expect(200)),
      ['Alpha Book'],
    );
    assert.deepEqual(
      titles(await suite.api.get(`/objects?${q({ type: 'books', 'metadata.genre': { $ne: 'sci-fi' } })}`).expect(200)),
      ['Beta Book', 'Delta C++ Book'],
    );
    assert.deepEqual(
      titles(
        await suite.api
          .get(`/objects?${q({ type: 'books', 'metadata.genre': { $nin: ['sci-fi', 'crime'] } })}`)
          .expect(200),
      ),
      ['Delta C++ Book'],
    );
  });

  it('supports $regex with $options, $or, $and, $nor and $not', async () => {
    assert.deepEqual(
      titles(await suite.api.get(`/objects?${q({ title: { $regex: '^alpha', $options: 'i' } })}`).expect(200)),
      ['Alpha Book'],
    );
    assert.deepEqual(
      titles(await suite.api.get(`/objects?${q({ $or: [{ title: 'Ada' }, { 'metadata.price': 30 }] })}`).expect(200)),
      ['Ada', 'Gamma Book'],
    );
    assert.deepEqual(
      titles(
        await suite.api
          .get(
            `/objects?${q({ $and: [{ type: 'books' }, { 'metadata.price': { $gt: 10 } }, { 'metadata.price': { $lt: 30 } }] })}`,
          )
          .expect(200),
      ),
      ['Beta Book', 'Delta C++ Book'],
    );
    assert.deepEqual(
      titles(await suite.api.get(`/objects?${q({ type: 'authors', $nor: [{ title: 'Ada' }] })}`).expect(200)),
      ['Bob'],
    );
    assert.deepEqual(
      titles(await suite.api.get(`/objects?${q({ type: 'authors', title: { $not: { $regex: '^A' } } })}`).expect(200)),
      ['Bob'],
    );
  });

  it('matches relationships by the related Object id, and finds one by id', async () => {
    assert.deepEqual(titles(await suite.api.get(`/objects?${q({ 'metadata.author': ids.ada })}`).expect(200)), [
      'Alpha Book',
      'Gamma Book',
    ]);
    const one = await suite.api.get(`/objects?limit=1&${q({ id: ids.bob })}`).expect(200);
    assert.equal(one.body.objects[0].title, 'Bob');
    assert.equal(one.body.total, 1);
  });

  it('finds by type and slug, and treats an unescaped + as a literal', async () => {
    const res = await suite.api
      .get(`/objects?query=${encodeURI(JSON.stringify({ type: 'books', title: 'Delta C++ Book' }))}`)
      .expect(200);
    assert.equal(res.body.objects[0].title, 'Delta C++ Book');
    const bySlug = await suite.api.get(`/objects?${q({ type: 'books', slug: 'beta-book' })}`).expect(200);
    assert.equal(bySlug.body.objects[0].id, ids['Beta Book']);
  });

  it('filters dates given as ISO strings', async () => {
    const future = new Date(Date.now() + 86_400_000).toISOString();
    const res = await suite.api.get(`/objects?${q({ type: 'authors', created_at: { $lt: future } })}`).expect(200);
    assert.equal(res.body.total, 2);
    await suite.api.get(`/objects?${q({ created_at: { $gt: future } })}`).expect(404);
  });

  it('answers 404 with the error body when nothing matches', async () => {
    const res = await suite.api.get(`/objects?${q({ title: 'Nothing like this' })}`).expect(404);
    assert.equal(res.body.status, 404);
    assert.match(res.body.message, /No objects found/);
  });

  it('rejects dangerous or unknown filters with 400 naming the offender', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ $where: 'sleep(1000)' }, /\$where/],
      [{ title: { $expr: 1 } }, /\$expr/],
      [{ password: 'x' }, /unknown key "password"/],
      [{ status: 'draft' }, /status parameter/],
      [{ 'metadata..x': 1 }, /metadata\.\.x/],
      [{ title: { $regex: 'a'.repeat(300) } }, /regex|256/],
      [{ title: { $regex: 'a', $options: 'g' } }, /flag/],
      [{ title: { $in: Array.from({ length: 600 }, (_, i) => String(i)) } }, /500/],
      [{ id: 'nope' }, /not a valid Object id/],
    ];
    for (const [query, message] of cases) {
      const res = await suite.api.get(`/objects?${q(query)}`).expect(400);
      assert.match(res.body.message, message, JSON.stringify(query));
    }
    const malformed = await suite.api.get('/objects?query={"title":').expect(400);
    assert.match(malformed.body.message, /Malformed query/);
    let deep: unknown = { title: 'x' };
    for (let i = 0; i < 20; i++) deep = { $and: [deep] };
    await suite.api.get(`/objects?${q(deep)}`).expect(400);
  });

  it('status selects published (default), draft or any', async () => {
    assert.equal((await suite.api.get(`/objects?${q({ type: 'books' })}&status=draft`).expect(200)).body.total, 1);
    assert.equal((await suite.api.get(`/objects?${q({ type: 'books' })}&status=any`).expect(200)).body.total, 5);
    await suite.api.get('/objects?status=all').expect(400);
  });

  it('props narrows the returned fields, nested paths included', async () => {
    const res = await suite.api
      .get(`/objects?${q({ type: 'books', 'metadata.price': 10 })}&props=id,title,metadata.price`)
      .expect(200);
    assert.deepEqual(res.body.objects, [{ id: ids['Alpha Book'], title: 'Alpha Book', metadata: { price: 10 } }]);
  });

  it('limit and skip page through results while total counts all matches', async () => {
    const res = await suite.api.get(`/objects?${q({ type: 'books' })}&limit=2&skip=1`).expect(200);
    assert.equal(res.body.total, 4);
    assert.deepEqual(
      res.body.objects.map((o: { title: string }) => o.title),
      ['Gamma Book', 'Beta Book'],
    );
    const bad = await suite.api.get('/objects?limit=0&skip=-1').expect(400);
    assert.match(bad.body.message, /limit/);
    assert.match(bad.body.message, /skip/);
    const both = await suite.api.get(`/objects?skip=1&after=${ids.ada}`).expect(400);
    assert.match(both.body.message, /skip cannot be combined with after/);
  });

  it('sorts by sortable Metafields only, with id breaking ties', async () => {
    const asc = await suite.api.get(`/objects?${q({ type: 'books' })}&sort=metadata.price`).expect(200);
    assert.deepEqual(
      asc.body.objects.map((o: { metadata: { price: number } }) => o.metadata.price),
      [10, 20, 20, 30],
    );
    const tied = asc.body.objects.slice(1, 3).map((o: { id: string }) => o.id);
    assert.deepEqual(tied, [...tied].sort());
    const desc = await suite.api.get(`/objects?${q({ type: 'books' })}&sort=-metadata.price`).expect(200);
    assert.deepEqual(
      desc.body.objects.map((o: { metadata: { price: number } }) => o.metadata.price),
      [30, 20, 20, 10],
    );
    const notSortable = await suite.api.get(`/objects?${q({ type: 'books' })}&sort=metadata.genre`).expect(400);
    assert.match(notSortable.body.message, /must be marked sortable/);
    await suite.api.get('/objects?sort=title').expect(400);
    const random = await suite.api.get(`/objects?${q({ type: 'books' })}&sort=random`).expect(200);
    assert.equal(random.body.objects.length, 4);
    await suite.api.get(`/objects?sort=random&after=${ids.ada}`).expect(400);
  });

  it('rejects depth above 3 or not an integer', async () => {
    await suite.api.get('/objects?depth=4').expect(400);
    await suite.api.get('/objects?depth=1.5').expect(400);
  });
});
