import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { importKey, plannedMediaName, plannedObjectId } from '../../lib/migrate/id-plan.js';
import {
  answerToWriteForm,
  remapWriteForm,
  storedToWriteForm,
  type DroppedRef,
} from '../../lib/migrate/metadata-forms.js';
import { lines } from '../../lib/migrate/ndjson.js';
import { referencedTypes, withoutReferences } from '../../lib/metafields/type-references.js';
import { everyMetafield } from '../support/fixtures.js';

const A = '5f1b2c3d4e5f6a7b8c9d0e1f';
const B = '60aabbccddeeff0011223344';

describe('migration: metadata forms', () => {
  it('stored metadata → the write form: ids as hex, only the Metafields the type defines', () => {
    const stored = {
      headline: 'Hi',
      colour: 'g',
      author: new ObjectId(A),
      related: [new ObjectId(A), new ObjectId(B)],
      seo: { title: 'T', weight: 2, gone: 'x' },
      links: [{ label: 'L', href: '/', stale: 1 }],
      removed_field: 'kept in storage, not carried',
    };
    assert.deepEqual(storedToWriteForm(everyMetafield, stored), {
      headline: 'Hi',
      colour: 'g',
      author: A,
      related: [A, B],
      seo: { title: 'T', weight: 2 },
      links: [{ label: 'L', href: '/' }],
    });
  });

  it('an answer (depth 0 or expanded) → the write form, by each kind', () => {
    const answered = {
      colour: { key: 'g', value: 'Green' },
      image: { url: 'https://cdn.example.com/files/b/abc-cat%20one.png?x=1', imgproc_url: 'https://img/abc' },
      author: { id: A, title: 'Expanded' },
      related: [A, { id: B }],
      tags: ['news'],
      seo: { title: 'T', weight: null },
      links: [{ label: 'L', href: '/' }],
    };
    assert.deepEqual(answerToWriteForm(everyMetafield, answered), {
      colour: 'g',
      image: 'abc-cat one.png',
      author: A,
      related: [A, B],
      tags: ['news'],
      seo: { title: 'T', weight: null },
      links: [{ label: 'L', href: '/' }],
    });
  });

  it('moves relationships and file names to the target, at any depth, and drops what the bundle lacks', () => {
    const dropped: DroppedRef[] = [];
    const remap = {
      object: (id: string) => ({ one: A, two: B })[id],
      media: (name: string) => (name === 'cat.png' ? 'ffff-cat.png' : undefined),
    };
    const metafields = [
      ...everyMetafield,
      {
        type: 'parent' as const,
        title: 'Box',
        key: 'box',
        children: [{ type: 'object' as const, title: 'Inner', key: 'inner', value: '', object_type: 'authors' }],
      },
    ];
    const out = remapWriteForm(
      metafields,
      { author: 'one', related: ['two', 'gone', 'one'], image: 'dog.png', box: { inner: 'two' }, headline: 'x' },
      remap,
      (ref) => dropped.push(ref),
    );
    assert.deepEqual(out, { author: A, related: [B, A], image: null, box: { inner: B }, headline: 'x' });
    // In the order of the type's Metafields.
    assert.deepEqual(dropped, [
      { path: 'image', what: 'media', value: 'dog.png' },
      { path: 'related', what: 'Object', value: 'gone' },
    ]);
    assert.deepEqual(
      remapWriteForm(everyMetafield, { image: 'cat.png', author: null }, remap, () => undefined),
      {
        image: 'ffff-cat.png',
        author: null,
      },
    );
  });
});

describe('migration: derived ids and names', () => {
  it('gives the same source the same id in the same import, and another in another', () => {
    const key = importKey('target', 'bucket:1');
    const created = new Date('2024-01-02T03:04:05Z');
    assert.equal(plannedObjectId(key, A, created).toHexString(), plannedObjectId(key, A, created).toHexString());
    assert.notEqual(plannedObjectId(key, A, created).toHexString(), plannedObjectId(key, B, created).toHexString());
    assert.notEqual(
      plannedObjectId(importKey('other', 'bucket:1'), A, created).toHexString(),
      plannedObjectId(key, A, created).toHexString(),
    );
  });

  it("keeps an ObjectId's creation time, or takes the record's for other ids", () => {
    const key = importKey('target', 'src');
    assert.equal(
      plannedObjectId(key, A, new Date(0)).getTimestamp().getTime(),
      new ObjectId(A).getTimestamp().getTime(),
    );
    const created = new Date('2024-01-02T03:04:05Z');
    assert.equal(plannedObjectId(key, 'welcome-post', created).getTimestamp().getTime(), created.getTime());
  });

  it('names media as uploads are named, with a derived prefix', () => {
    const key = importKey('target', 'src');
    const name = plannedMediaName(key, 'abc-cat.png', 'My Cat.PNG', 'image/png');
    assert.match(name, /^[0-9a-f]{16}-my-cat\.png$/);
    assert.equal(plannedMediaName(key, 'abc-cat.png', 'My Cat.PNG', 'image/png'), name);
    assert.notEqual(plannedMediaName(key, 'other.png', 'My Cat.PNG', 'image/png'), name);
  });
});

describe('migration: relationship definitions', () => {
  const list = [
    { type: 'object' as const, title: 'A', key: 'a', object_type: 'authors', value: '' },
    {
      type: 'repeater' as const,
      title: 'R',
      key: 'r',
      repeater_fields: [{ type: 'objects' as const, title: 'P', key: 'p', object_type: 'posts', value: '' }],
      children: [
        {
          type: 'repeating_item' as const,
          children: [{ type: 'objects' as const, title: 'P', key: 'p', object_type: 'posts', value: '' }],
        },
      ],
    },
    { type: 'text' as const, title: 'T', key: 't', value: '' },
  ];

  it('finds every type named at any depth', () => {
    assert.deepEqual([...referencedTypes(list)].sort(), ['authors', 'posts']);
  });

  it('leaves out the relationships to types refused, at any depth, without changing the original', () => {
    const kept = withoutReferences(list, (slug) => slug === 'authors');
    assert.deepEqual([...referencedTypes(kept)], ['authors']);
    assert.equal(kept.length, 3);
    assert.deepEqual([...referencedTypes(list)].sort(), ['authors', 'posts']);
  });
});

describe('migration: NDJSON lines', () => {
  async function* chunks(...parts: string[]) {
    for (const p of parts) {
      await Promise.resolve();
      yield Buffer.from(p);
    }
  }
  const all = async (source: AsyncIterable<unknown>) => {
    const out: string[] = [];
    for await (const line of lines(source, 'x.ndjson')) out.push(line);
    return out;
  };

  it('splits lines across chunks, a character split between chunks included, and keeps a last unterminated line', async () => {
    const euro = Buffer.from('€');
    async function* split() {
      await Promise.resolve();
      yield Buffer.concat([Buffer.from('{"a":"'), euro.subarray(0, 1)]);
      yield Buffer.concat([euro.subarray(1), Buffer.from('"}\n{"b":1}\n\n{"c"')]);
      yield Buffer.from(':2}');
    }
    assert.deepEqual(await all(split()), ['{"a":"€"}', '{"b":1}', '', '{"c":2}']);
    assert.deepEqual(await all(chunks('one\ntwo\n')), ['one', 'two']);
  });
});
