import assert from 'node:assert/strict';
import type { Metafield } from '../../lib/types/metafield.js';
import { nestedMetafields, referencesTo, renameReferences } from '../../lib/metafields/type-references.js';

const rel = (key: string, target: string): Metafield => ({
  type: 'object',
  title: key,
  key,
  value: '',
  object_type: target,
});

/** A relationship at every place a Metafield can nest: top level, parent, repeater template, repeating item. */
const fields: Metafield[] = [
  rel('author', 'authors'),
  { type: 'text', title: 'Title', key: 'title', value: '' },
  {
    type: 'parent',
    title: 'Meta',
    key: 'meta',
    children: [
      rel('editor', 'authors'),
      {
        type: 'repeater',
        title: 'Links',
        key: 'links',
        repeater_fields: [rel('target', 'pages')],
        children: [{ type: 'repeating_item', children: [rel('target', 'authors')] }],
      },
    ],
  },
];

describe('Object type references in Metafield definitions', () => {
  it('walks every level and names each Metafield by its path', () => {
    assert.deepEqual([...nestedMetafields(fields)].map((n) => n.path).sort(), [
      'author',
      'meta',
      'meta.editor',
      'meta.links',
      'meta.links.target',
      'meta.links[0].target',
      'title',
    ]);
  });

  it('lists where a type is referred to', () => {
    assert.deepEqual(referencesTo(fields, 'authors'), ['author', 'meta.editor', 'meta.links[0].target']);
    assert.deepEqual(referencesTo(fields, 'pages'), ['meta.links.target']);
    assert.deepEqual(referencesTo(fields, 'tags'), []);
  });

  it('renames references in a copy and leaves the original alone', () => {
    const before = structuredClone(fields);
    const renamed = renameReferences(fields, 'authors', 'writers');
    assert.ok(renamed);
    assert.deepEqual(referencesTo(renamed, 'writers'), ['author', 'meta.editor', 'meta.links[0].target']);
    assert.deepEqual(referencesTo(renamed, 'authors'), []);
    assert.deepEqual(referencesTo(renamed, 'pages'), ['meta.links.target']);
    assert.deepEqual(fields, before);
  });

  it('answers null when nothing refers to the old slug', () => {
    assert.equal(renameReferences(fields, 'tags', 'labels'), null);
    assert.equal(renameReferences([], 'authors', 'writers'), null);
  });
});
