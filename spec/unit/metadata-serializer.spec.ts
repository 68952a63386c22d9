import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import type { Metafield, MetafieldOption } from '../../lib/types/metafield.js';
import {
  collectRefs,
  defaultMetadata,
  relationshipRefs,
  renderMetadata,
  toStoredMetadata,
  type MetadataRenderContext,
} from '../../lib/metafields/stored-values.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { mf } from '../support/metadata-helpers.js';

const A = '5f1b2c3d4e5f6a7b8c9d0e1f';
const B = '60aabbccddeeff0011223344';
const C = '6100000000000000000000cc';

const COLOR_OPTIONS: MetafieldOption[] = [
  { key: 'red', value: 'Red' },
  { key: 'blue', value: 'Blue' },
];
const COLOR = mf('select-dropdown', 'color', { options: COLOR_OPTIONS });
const AUTHOR = mf('object', 'author', { object_type: 'authors' });
const RELATED = mf('objects', 'related', { object_type: 'posts' });
const SEO = mf('parent', 'seo', {
  children: [mf('text', 'title', { value: 'Untitled' }), mf('object', 'og'), mf('file', 'image')],
});
const SECTIONS = mf('repeater', 'sections', {
  repeater_fields: [
    mf('text', 'heading'),
    mf('object', 'ref'),
    mf('objects', 'more'),
    mf('select-dropdown', 'tone', { options: [{ key: 'k', value: 'Kind' }] }),
  ],
});
const FIELDS: Metafield[] = [
  mf('text', 'headline'),
  mf('number', 'price'),
  mf('switch', 'on', { options: 'true,false' }),
  mf('date', 'when'),
  mf('check-boxes', 'tags', { options: [{ value: 'x' }, { value: 'y' }] }),
  mf('json', 'data'),
  mf('file', 'cover'),
  COLOR,
  AUTHOR,
  RELATED,
  SEO,
  SECTIONS,
];

const MEDIA: Record<string, { url: string; imgproc_url: string }> = {
  'cover.png': { url: 'https://cdn.example/cover.png', imgproc_url: 'https://img.example/cover.png' },
  'og.png': { url: 'https://cdn.example/og.png', imgproc_url: 'https://img.example/og.png' },
};

const related: unknown[] = [];
const CTX: MetadataRenderContext = {
  fileUrls: (name) => MEDIA[name] ?? null,
  renderRelated: (doc) => {
    related.push(doc);
    return { rendered: (doc as { title: string }).title };
  },
};

function isHexId(value: unknown, hex: string): boolean {
  return value instanceof ObjectId && value.toHexString() === hex;
}

describe('metadata serializers', () => {
  const input = {
    headline: 'Hi',
    price: 9.5,
    on: true,
    when: '2024-05-01',
    tags: ['x'],
    data: { nested: [1, null] },
    cover: 'cover.png',
    color: 'Blue',
    author: A.toUpperCase(),
    related: [B, C],
    seo: { og: B, image: 'og.png' },
    sections: [{ heading: 'One', ref: C, more: [A, B], tone: 'Kind' }, { heading: '' }],
  };

  it('the fixture is valid input', () => {
    const validate = new MetadataValidators().for(
      { _id: new ObjectId(), modified_at: new Date(0), metafields: FIELDS },
      'create',
    );
    assert.deepEqual(validate(input), []);
  });

  describe('toStoredMetadata', () => {
    const stored = toStoredMetadata(FIELDS, input, defaultMetadata(FIELDS));

    it('stores relationships as ObjectIds', () => {
      assert.ok(isHexId(stored.author, A));
      assert.ok(Array.isArray(stored.related));
      assert.deepEqual(
        (stored.related as ObjectId[]).map((id) => id.toHexString()),
        [B, C],
      );
    });

    it('stores a select-dropdown as the option key, whether key or value was sent', () => {
      assert.equal(stored.color, 'blue');
      assert.equal(toStoredMetadata([COLOR], { color: 'red' }).color, 'red');
    });

    it('recurses into parents, keeping the children not sent as the base has them', () => {
      const seo = stored.seo as Record<string, unknown>;
      assert.equal(seo.title, 'Untitled');
      assert.ok(isHexId(seo.og, B));
      assert.equal(seo.image, 'og.png');
    });

    it('recurses into repeater items', () => {
      const [first, second] = stored.sections as Array<Record<string, unknown>>;
      assert.ok(first, 'the first repeater item is stored');
      assert.ok(isHexId(first.ref, C));
      assert.deepEqual(
        (first.more as ObjectId[]).map((id) => id.toHexString()),
        [A, B],
      );
      assert.equal(first.tone, 'k');
      assert.deepEqual(second, { heading: '', ref: null, more: [], tone: null });
    });

    it('keeps other values as sent', () => {
      assert.equal(stored.price, 9.5);
      assert.equal(stored.on, true);
      assert.equal(stored.when, '2024-05-01');
      assert.deepEqual(stored.tags, ['x']);
      assert.deepEqual(stored.data, { nested: [1, null] });
      assert.equal(stored.cover, 'cover.png');
    });

    it('stores "" and null as the kind\'s empty value, except for json, where they are values', () => {
      const sent = { headline: null, price: '', on: null, tags: '', author: null, related: '', color: '', data: '' };
      assert.deepEqual(toStoredMetadata(FIELDS, sent), {
        headline: '',
        price: null,
        on: false,
        tags: [],
        author: null,
        related: [],
        color: null,
        data: '',
      });
      assert.deepEqual(toStoredMetadata(FIELDS, { data: null }), { data: null });
    });

    it('converts only the keys sent, so a patch stays a patch', () => {
      assert.deepEqual(Object.keys(toStoredMetadata(FIELDS, { price: 1 })), ['price']);
    });

    it('changes only the sent keys at every depth of parents, and leaves the base as it was', () => {
      const fields = [
        mf('parent', 'a', { children: [mf('parent', 'b', { children: [mf('text', 'x'), mf('text', 'y')] })] }),
      ];
      const base = { a: { b: { x: 'X', y: 'Y' } }, other: 1 };
      assert.deepEqual(toStoredMetadata(fields, { a: { b: { y: 'Y2' } } }, base), {
        a: { b: { x: 'X', y: 'Y2' } },
        other: 1,
      });
      assert.deepEqual(base, { a: { b: { x: 'X', y: 'Y' } }, other: 1 });
    });

    it('replaces a repeater whole, each item with defaults for the keys it does not send', () => {
      const base = { sections: [{ heading: 'Old' }, { heading: 'Older' }] };
      const out = toStoredMetadata([SECTIONS], { sections: [{ heading: 'New' }] }, base);
      assert.deepEqual(out, { sections: [{ heading: 'New', ref: null, more: [], tone: null }] });
    });

    it('collapses relationship ids that differ only in letter case', () => {
      const out = toStoredMetadata([RELATED], { related: [A, A.toUpperCase(), B] });
      assert.deepEqual(
        (out.related as ObjectId[]).map((id) => id.toHexString()),
        [A, B],
      );
    });
  });

  describe('defaultMetadata', () => {
    it('converts each default value to stored form', () => {
      const defaults = defaultMetadata([
        mf('text', 't', { value: 'hello' }),
        mf('number', 'n'),
        mf('object', 'o', { value: A }),
        mf('objects', 'os', { value: `${A}, ${B}` }),
        mf('select-dropdown', 's', { value: 'Red', options: COLOR_OPTIONS }),
        mf('switch', 'sw', { value: 'yes', options: 'yes,no' }),
        mf('check-boxes', 'cb', { value: ['x'], options: [{ value: 'x' }] }),
        SEO,
        SECTIONS,
      ]);
      assert.equal(defaults.t, 'hello');
      assert.equal(defaults.n, null);
      assert.ok(isHexId(defaults.o, A));
      assert.deepEqual(
        (defaults.os as ObjectId[]).map((id) => id.toHexString()),
        [A, B],
      );
      assert.equal(defaults.s, 'red');
      assert.equal(defaults.sw, true);
      assert.deepEqual(defaults.cb, ['x']);
      assert.deepEqual(defaults.seo, { title: 'Untitled', og: null, image: null });
      assert.deepEqual(defaults.sections, []);
    });
  });

  describe('collectRefs', () => {
    it('finds ids at the top level, in parents and in repeater items, deduplicated', () => {
      const refs = collectRefs(FIELDS, toStoredMetadata(FIELDS, input, defaultMetadata(FIELDS)));
      assert.ok(refs.every((id) => id instanceof ObjectId));
      assert.deepEqual(
        refs.map((id) => id.toHexString()),
        [A, B, C],
      );
    });

    it('ignores ids under keys the type does not define as relationships', () => {
      const refs = collectRefs([mf('text', 'headline'), AUTHOR], { headline: A, gone: new ObjectId(B), author: '' });
      assert.deepEqual(refs, []);
    });
  });

  describe('relationshipRefs', () => {
    it('lists every id of the input with its path and expected type', () => {
      assert.deepEqual(relationshipRefs(FIELDS, input), [
        { path: 'author', id: A, objectType: 'authors', metafieldType: 'object' },
        { path: 'related', id: B, objectType: 'posts', metafieldType: 'objects' },
        { path: 'related', id: C, objectType: 'posts', metafieldType: 'objects' },
        { path: 'seo.og', id: B, objectType: undefined, metafieldType: 'object' },
        { path: 'sections.0.ref', id: C, objectType: undefined, metafieldType: 'object' },
        { path: 'sections.0.more', id: A, objectType: undefined, metafieldType: 'objects' },
        { path: 'sections.0.more', id: B, objectType: undefined, metafieldType: 'objects' },
      ]);
    });

    it('skips empty relationship values', () => {
      assert.deepEqual(relationshipRefs(FIELDS, { author: '', related: [], seo: { og: null } }), []);
    });
  });

  describe('renderMetadata', () => {
    it('round-trips input through the stored form to the v3 response shapes', () => {
      const out = renderMetadata(FIELDS, toStoredMetadata(FIELDS, input, defaultMetadata(FIELDS)), CTX);
      assert.deepEqual(out, {
        headline: 'Hi',
        price: 9.5,
        on: true,
        when: '2024-05-01',
        tags: ['x'],
        data: { nested: [1, null] },
        cover: MEDIA['cover.png'],
        color: { key: 'blue', value: 'Blue' },
        author: A,
        related: [B, C],
        seo: { title: 'Untitled', og: B, image: MEDIA['og.png'] },
        sections: [
          { heading: 'One', ref: C, more: [A, B], tone: { key: 'k', value: 'Kind' } },
          { heading: '', ref: null, more: [], tone: null },
        ],
      });
    });

    it('renders expanded related Objects through ctx.renderRelated', () => {
      related.length = 0;
      const expanded = { _id: new ObjectId(A), title: 'Ann' };
      const out = renderMetadata(
        [AUTHOR, RELATED],
        { author: expanded, related: [new ObjectId(B), { title: 'Cee' }] },
        CTX,
      );
      assert.deepEqual(out, { author: { rendered: 'Ann' }, related: [B, { rendered: 'Cee' }] });
      assert.equal(related[0], expanded);
    });

    it('answers value = key for a select-dropdown key no longer among the options', () => {
      assert.deepEqual(renderMetadata([COLOR], { color: 'green' }, CTX), { color: { key: 'green', value: 'green' } });
    });

    it('renders a file without a media item as null', () => {
      assert.deepEqual(renderMetadata([mf('file', 'cover')], { cover: 'deleted.png' }, CTX), { cover: null });
    });

    it('answers only the Metafields the type defines now, at every depth', () => {
      const fields = [mf('text', 'headline'), mf('parent', 'seo', { children: [mf('text', 'title')] })];
      const stored = { headline: 'x', old: { ids: [new ObjectId(C)] }, seo: { title: 't', gone: 1 } };
      assert.deepEqual(renderMetadata(fields, stored, CTX), { headline: 'x', seo: { title: 't' } });
    });

    it("answers each defined key the stored document lacks, or holds empty, with its kind's empty value", () => {
      const empties = {
        headline: '',
        on: false,
        when: null,
        tags: [],
        data: null,
        cover: null,
        color: null,
        author: null,
        related: [],
        seo: { title: '', og: null, image: null },
        sections: [],
      };
      assert.deepEqual(renderMetadata(FIELDS, { price: 3 }, CTX), { price: 3, ...empties });
      const legacy = { price: '', headline: null, on: '', when: '', tags: '', cover: '', color: '', related: '' };
      assert.deepEqual(renderMetadata(FIELDS, legacy, CTX), { price: null, ...empties });
      assert.deepEqual(renderMetadata([mf('json', 'data')], { data: '' }, CTX), { data: '' });
    });

    it('passes through values stored before a Metafield changed type', () => {
      const out = renderMetadata(
        [mf('parent', 'p', { children: [] }), mf('repeater', 'r', { repeater_fields: [] }), mf('object', 'o')],
        {
          p: 'legacy',
          r: 'legacy',
          o: 'not-an-id',
        },
        CTX,
      );
      assert.deepEqual(out, { p: 'legacy', r: 'legacy', o: 'not-an-id' });
    });
  });
});
