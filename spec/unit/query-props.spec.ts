import assert from 'node:assert/strict';
import { MAX_PROPS } from '../../lib/query/limits.js';
import { parseProps, pickProps, propsProjection } from '../../lib/query/props.js';

/** parseProps with its reported problems. */
function props(raw: string): { value: readonly string[] | null; problems: string[] } {
  const problems: string[] = [];
  const value = parseProps(raw, (p) => problems.push(p));
  return { value, problems };
}

describe('query: parseProps', () => {
  it('means all properties when empty', () => {
    assert.deepEqual(props(''), { value: null, problems: [] });
    assert.deepEqual(props(' , ,'), { value: null, problems: [] });
  });

  it('splits, trims, drops empty parts and duplicates', () => {
    assert.deepEqual(props(' id, title,,metadata.image.imgproc_url ,title,'), {
      value: ['id', 'title', 'metadata.image.imgproc_url'],
      problems: [],
    });
  });

  it('rejects invalid paths, naming every one', () => {
    assert.deepEqual(props('id,a b,x..y,.z,$where,ok'), {
      value: null,
      problems: ['props: "a b", "x..y", ".z", "$where" (each must be a dotted path of letters, digits, _ and -)'],
    });
  });

  it('names at most ten invalid paths and counts the rest', () => {
    const bad = Array.from({ length: 13 }, (_, i) => `b ${i}`).join(',');
    const [problem] = props(bad).problems;
    assert.match(problem ?? '', /"b 9", and 3 more \(each must/);
  });

  it('rejects prototype-reaching segments', () => {
    assert.deepEqual(props('metadata.__proto__').problems, [
      'props: "metadata.__proto__" (each must be a dotted path of letters, digits, _ and -)',
    ]);
    assert.match(props('constructor').problems.join(), /props: "constructor"/);
  });

  it('rejects more than the maximum number of props', () => {
    const many = Array.from({ length: MAX_PROPS + 1 }, (_, i) => `p${i}`).join(',');
    assert.deepEqual(props(many), { value: null, problems: ['props: more than 100 properties'] });
  });
});

describe('query: propsProjection', () => {
  it('is null (whole documents) for all props', () => {
    assert.equal(propsProjection(null), null);
  });

  it('maps id to _id and always includes _id', () => {
    assert.deepEqual(propsProjection(['title']), { _id: 1, title: 1 });
    assert.deepEqual(propsProjection(['id', 'slug']), { _id: 1, slug: 1 });
  });

  it("projects whole Metafield values plus type, the Object's own Metafields and refs for metadata paths", () => {
    assert.deepEqual(propsProjection(['metadata.image.imgproc_url', 'metadata.authors.title']), {
      _id: 1,
      'metadata.authors': 1,
      'metadata.image': 1,
      own_metafields: 1,
      refs: 1,
      type: 1,
    });
  });

  it('drops paths covered by a requested ancestor (MongoDB path collision)', () => {
    assert.deepEqual(propsProjection(['metadata.image.url', 'metadata', 'type']), {
      _id: 1,
      metadata: 1,
      own_metafields: 1,
      refs: 1,
      type: 1,
    });
    assert.deepEqual(propsProjection(['title.length', 'title']), { _id: 1, title: 1 });
  });
});

describe('query: pickProps', () => {
  const rendered = {
    id: '1',
    title: 'Hello',
    slug: 'hello',
    metadata: {
      image: { url: 'https://cdn/x.png', imgproc_url: 'https://img/x.png' },
      authors: [{ id: 'a', title: 'Ann', slug: 'ann' }, { id: 'b', slug: 'bob' }, 'stray-id'],
      seo: { meta: { title: 'T', description: 'D' } },
      tags: ['x', 'y'],
    },
  };

  it('returns the object itself for all props', () => {
    assert.equal(pickProps(rendered, null), rendered);
  });

  it('keeps only requested top-level props, unknown ones absent', () => {
    assert.deepEqual(pickProps(rendered, ['id', 'title', 'nope']), { id: '1', title: 'Hello' });
  });

  it('keeps nested paths and merges siblings', () => {
    assert.deepEqual(pickProps(rendered, ['metadata.image.imgproc_url', 'metadata.seo.meta.title', 'metadata.tags']), {
      metadata: {
        image: { imgproc_url: 'https://img/x.png' },
        seo: { meta: { title: 'T' } },
        tags: ['x', 'y'],
      },
    });
  });

  it('applies a path through an array to each element', () => {
    assert.deepEqual(pickProps(rendered, ['metadata.authors.title', 'metadata.authors.slug']), {
      metadata: { authors: [{ title: 'Ann', slug: 'ann' }, { slug: 'bob' }] },
    });
  });

  it('lets a whole value win over a deeper path into it', () => {
    const expected = { metadata: { image: rendered.metadata.image } };
    assert.deepEqual(pickProps(rendered, ['metadata.image.url', 'metadata.image']), expected);
    assert.deepEqual(pickProps(rendered, ['metadata.image', 'metadata.image.url']), expected);
  });

  it('keeps an existing object emptied of unknown keys, as a MongoDB projection does', () => {
    assert.deepEqual(pickProps(rendered, ['metadata.nope', 'nope.deeper']), { metadata: {} });
  });

  it('leaves a path through a scalar absent', () => {
    assert.deepEqual(pickProps(rendered, ['title.length', 'slug']), { slug: 'hello' });
  });

  it('never reads inherited properties', () => {
    assert.deepEqual(pickProps({ a: 1 }, ['toString', 'constructor', 'a']), { a: 1 });
  });

  it('copies an own __proto__ key as data without changing the prototype', () => {
    const source = JSON.parse('{"metadata": {"__proto__": {"x": 1}}}') as Record<string, unknown>;
    const out = pickProps(source, ['metadata.__proto__']);
    const metadata = out.metadata as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(metadata), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(metadata, '__proto__')?.value, { x: 1 });
  });

  it('does not modify the rendered object', () => {
    const copy = structuredClone(rendered);
    pickProps(rendered, ['metadata.authors.title']);
    assert.deepEqual(rendered, copy);
  });
});
