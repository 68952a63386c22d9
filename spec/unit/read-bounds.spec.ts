import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BSON, ObjectId } from 'mongodb';
import type { ObjectDoc, ObjectTypeDoc } from '../../lib/db/collections.js';
import { megabytes, readLimitAdvice, ResponseTooLargeError } from '../../lib/errors/domain-limits.js';
import { jsonBytesAtLeast } from '../../lib/http/json-size.js';
import { MIN_RENDERED_OBJECT_BYTES, renderObjects, type RenderContext } from '../../lib/render/objects.js';
import { ByteBudget } from '../../lib/query/read-budget.js';

const exact = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

describe('jsonBytesAtLeast (pure)', () => {
  it('never exceeds the compact JSON size, and equals it when nothing needs escaping', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        assert.ok(jsonBytesAtLeast(value, Infinity) <= exact(value));
      }),
    );
    const plain = { a: [1, 2.5, true, null, 'x'], b: { c: 'é€😀' }, d: [], e: {}, f: undefined, g: [undefined] };
    assert.equal(jsonBytesAtLeast(plain, Infinity), exact(plain));
    const dated = { at: new Date(0), id: new ObjectId('0123456789abcdef01234567') };
    assert.equal(jsonBytesAtLeast(dated, Infinity), exact(dated));
  });

  it('sizes a shared subtree at every reference without writing it out', () => {
    // The leaf counts how often it is read: the work of the sizing, measured without a clock.
    let reads = 0;
    const leaf = {
      get text() {
        reads++;
        return 'y'.repeat(1000);
      },
    };
    let level: unknown = leaf;
    // 30⁴ references to one leaf: about 810 MB of JSON, from a few kB of objects.
    for (let i = 0; i < 4; i++) level = Array.from({ length: 30 }, () => level);
    assert.ok(jsonBytesAtLeast(level, 6 * 1024 * 1024) > 6 * 1024 * 1024);
    assert.equal(reads, 1, 'the shared leaf is sized once, not at each of its 810,000 references');
    const small = Array.from({ length: 3 }, () => leaf);
    assert.equal(jsonBytesAtLeast(small, Infinity), exact(small));
  });
});

describe('ByteBudget (pure)', () => {
  it('counts stored (BSON) bytes and refuses the document that crosses the cap', () => {
    const doc = { text: 'z'.repeat(1000) };
    const size = BSON.calculateObjectSize(doc);
    const budget = new ByteBudget(size * 2);
    budget.add(doc);
    budget.add(doc);
    assert.throws(
      () => {
        budget.add({ a: 1 });
      },
      (err: unknown) => {
        assert.ok(err instanceof ResponseTooLargeError);
        assert.equal(err.message, 'The response would be over the 0.0 MB limit (0.0 MB of stored data read)');
        return true;
      },
    );
  });

  it('advises only what a route takes, depth first when the read expanded relationships', () => {
    const advise = (params: string[], expanding = false) => readLimitAdvice(new Set(params), expanding);
    const objectsList = ['props', 'limit', 'skip', 'after', 'depth'];
    assert.equal(advise(objectsList), 'lower limit, narrow props, or paginate with skip or after');
    assert.equal(advise(objectsList, true), 'lower depth, lower limit, narrow props, or paginate with skip or after');
    assert.equal(advise(['props', 'limit', 'skip']), 'lower limit, narrow props, or paginate with skip');
    assert.equal(advise(['props', 'depth'], true), 'lower depth or narrow props');
    assert.equal(advise(['props', 'depth']), 'narrow props');
    assert.equal(advise(['props']), 'narrow props');
    assert.equal(advise([]), 'this route cannot return less of it');
  });

  it('names whole megabytes plainly', () => {
    assert.equal(megabytes(6 * 1024 * 1024), '6');
    assert.equal(megabytes(6.25 * 1024 * 1024), '6.3');
  });
});

describe('renderObjects (pure)', () => {
  const ctx: RenderContext = { types: new Map<string, ObjectTypeDoc>(), fileUrls: () => null };
  const minimal = (): ObjectDoc => ({
    _id: new ObjectId(),
    bucket_id: new ObjectId(),
    type: '',
    slug: '',
    title: '',
    content: '',
    locale: null,
    thumbnail: null,
    status: 'draft',
    metadata: {},
    refs: [],
    order: 0,
    created_at: new Date(0),
    modified_at: new Date(0),
    published_at: null,
    created_by: null,
    modified_by: null,
  });

  it('writes at least MIN_RENDERED_OBJECT_BYTES for the smallest Object', () => {
    const { metadata: _m, ...noMetadata } = minimal();
    for (const doc of [minimal(), noMetadata]) {
      const [rendered] = renderObjects([doc], ctx);
      assert.ok(exact(rendered) >= MIN_RENDERED_OBJECT_BYTES, `${exact(rendered)} bytes`);
    }
  });

  it('renders an Object shared by expansion once per response', () => {
    const posts = { slug: 'posts', metafields: [{ type: 'object', key: 'author', title: 'Author' }] };
    const withPosts: RenderContext = { ...ctx, types: new Map([['posts', posts as ObjectTypeDoc]]) };
    const author = minimal();
    const page = [minimal(), minimal()].map((p) => ({ ...p, type: 'posts', metadata: { author } }));
    const [a, b] = renderObjects(page, withPosts);
    const authorOf = (o: Record<string, unknown> | undefined) => (o?.metadata as { author: unknown }).author;
    assert.equal(authorOf(a), authorOf(b));
    assert.equal((authorOf(a) as { id: string }).id, author._id.toHexString());
  });
});
