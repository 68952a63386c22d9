import assert from 'node:assert/strict';
import { parse, type OperationDefinitionNode } from 'graphql';
import type { ObjectTypeDoc } from '../../lib/db/collections.js';
import { fieldName, pascalName, uniqueNames } from '../../lib/graphql/names.js';
import { limitRefusal, measureOperation } from '../../lib/graphql/limits.js';
import { buildBucketSchema } from '../../lib/graphql/schema.js';

const type = (slug: string, metafields: ObjectTypeDoc['metafields'] = []) =>
  ({ slug, title: slug, metafields }) as ObjectTypeDoc;

describe('GraphQL names and operation limits (pure)', () => {
  it('spells slugs and keys as GraphQL names', () => {
    assert.equal(fieldName('blog-posts'), 'blog_posts');
    assert.equal(fieldName('3d-models'), '_3d_models');
    assert.equal(fieldName('__secret'), 'x__secret');
    assert.equal(pascalName('blog-posts'), 'BlogPosts');
    assert.equal(pascalName('3d'), 'T3d');
  });

  it('tells apart slugs that spell alike, and reserved names', () => {
    const names = uniqueNames(['a-1', 'a_1', 'query'], fieldName, new Set(['query']));
    assert.deepEqual([...names.values()], ['a_1', 'a_1_2', 'query_2']);
  });

  it('builds a schema whose type names do not collide (Blog + BlogPage, Media)', () => {
    const schema = buildBucketSchema([type('blog'), type('blog-page'), type('media')]);
    const names = Object.keys(schema.getTypeMap());
    for (const name of ['Blog', 'BlogPage', 'BlogPage_2', 'Media_2']) assert.ok(names.includes(name), name);
    assert.ok(schema.getQueryType()?.getFields().blog_page, 'blog-page keeps its field');
  });

  const schema = buildBucketSchema([
    type('authors'),
    type('posts', [{ type: 'objects', title: 'Co', key: 'co', object_type: 'authors', value: [] }]),
  ]);
  const measure = (source: string) => {
    const doc = parse(source);
    return measureOperation(schema, doc, doc.definitions[0] as OperationDefinitionNode);
  };

  it('measures depth, aliases and cost: a list counts its limit, a relationship list 10', () => {
    assert.deepEqual(measure('{ posts(limit: 5) { total objects { title } } }'), {
      depth: 3,
      aliases: 0,
      cost: 1 + 5 + 5 + 5,
    });
    const related = measure('{ p: posts(limit: 2) { objects { metadata { co { title } } } } }');
    assert.deepEqual(related, { depth: 5, aliases: 1, cost: 1 + 2 + 2 + 2 + 20 });
    assert.equal(measure('{ posts { total } }').cost, 1 + 1000);
    assert.deepEqual(measure('{ __schema { types { fields { name } } } }'), { depth: 0, aliases: 0, cost: 0 });
  });

  it('follows fragments and refuses past each limit, naming the setting', () => {
    const m = measure('query { posts(limit: 1) { ...f } } fragment f on PostsPage { objects { title } }');
    assert.equal(m.depth, 3);
    const limits = { maxDepth: 2, maxAliases: 0, maxCost: 100 };
    assert.match(limitRefusal(m, limits) ?? '', /GRAPHQL_MAX_DEPTH/);
    assert.match(limitRefusal({ depth: 1, aliases: 1, cost: 1 }, limits) ?? '', /GRAPHQL_MAX_ALIASES/);
    assert.match(limitRefusal({ depth: 1, aliases: 0, cost: 101 }, limits) ?? '', /GRAPHQL_MAX_COST/);
    assert.equal(limitRefusal({ depth: 2, aliases: 0, cost: 100 }, limits), null);
  });
});
