import assert from 'node:assert/strict';
import { BadRequestError } from '../../lib/errors/http-errors.js';
import { parseSort, type SortContext } from '../../lib/query/sort.js';

const objects: SortContext = { sortableKeys: new Set(['price', 'rank']), allowed: 'objects' };
const media: SortContext = { sortableKeys: new Set(['price']), allowed: 'media' };
const revisions: SortContext = { sortableKeys: new Set(), allowed: 'revisions' };
const legacyMedia: SortContext = { sortableKeys: new Set(), allowed: 'legacy-media' };

const badRequest = (fn: () => unknown, pattern: RegExp) => {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof BadRequestError);
    assert.equal(e.status, 400);
    assert.match(e.message, pattern);
    return true;
  });
};

describe('query: parseSort', () => {
  it('defaults per target', () => {
    assert.deepEqual(parseSort(undefined, objects), {
      random: false,
      fields: [
        ['order', -1],
        ['_id', -1],
      ],
    });
    assert.deepEqual(parseSort('', media), {
      random: false,
      fields: [
        ['created_at', -1],
        ['_id', -1],
      ],
    });
    assert.deepEqual(parseSort(undefined, revisions), {
      random: false,
      fields: [
        ['created_at', -1],
        ['_id', -1],
      ],
    });
  });

  for (const name of ['created_at', 'modified_at', 'order']) {
    it(`sorts Objects by ${name} both ways with an _id tiebreaker in the same direction`, () => {
      assert.deepEqual(parseSort(name, objects), {
        random: false,
        fields: [
          [name, 1],
          ['_id', 1],
        ],
      });
      assert.deepEqual(parseSort(`-${name}`, objects), {
        random: false,
        fields: [
          [name, -1],
          ['_id', -1],
        ],
      });
    });
  }

  it('sorts by a sortable Metafield', () => {
    assert.deepEqual(parseSort('metadata.price', objects), {
      random: false,
      fields: [
        ['metadata.price', 1],
        ['_id', 1],
      ],
    });
    assert.deepEqual(parseSort('-metadata.rank', objects), {
      random: false,
      fields: [
        ['metadata.rank', -1],
        ['_id', -1],
      ],
    });
  });

  it('explains what sorting by a non-sortable Metafield needs', () => {
    badRequest(
      () => parseSort('-metadata.color', objects),
      /^Cannot sort by "metadata\.color": the Metafield "color" must be marked sortable on the Object type, and sorting by metadata requires "type" in the query$/,
    );
    badRequest(() => parseSort('metadata.price.amount', objects), /must be marked sortable/);
    badRequest(() => parseSort('metadata.price', { ...objects, sortableKeys: new Set() }), /must be marked sortable/);
  });

  it('returns random without fields', () => {
    assert.deepEqual(parseSort('random', objects), { random: true });
    assert.deepEqual(parseSort('random', media), { random: true });
  });

  it('limits media to dates and random', () => {
    assert.deepEqual(parseSort('modified_at', media), {
      random: false,
      fields: [
        ['modified_at', 1],
        ['_id', 1],
      ],
    });
    badRequest(
      () => parseSort('order', media),
      /^Invalid sort "order"; allowed values for media are created_at, -created_at, modified_at, -modified_at, random$/,
    );
    badRequest(() => parseSort('metadata.price', media), /^Invalid sort "metadata\.price"/);
  });

  it('limits revisions to created_at', () => {
    assert.deepEqual(parseSort('created_at', revisions), {
      random: false,
      fields: [
        ['created_at', 1],
        ['_id', 1],
      ],
    });
    badRequest(() => parseSort('random', revisions), /allowed values for revisions are created_at, -created_at$/);
    badRequest(() => parseSort('-modified_at', revisions), /^Invalid sort "-modified_at"/);
  });

  it("takes v1/v2 media's created (an alias of created_at) and size, beside v3's values", () => {
    for (const [given, field, dir] of [
      ['created', 'created_at', 1],
      ['-created', 'created_at', -1],
      ['created_at', 'created_at', 1],
      ['-size', 'size', -1],
      ['modified_at', 'modified_at', 1],
    ] as const) {
      assert.deepEqual(parseSort(given, legacyMedia), {
        random: false,
        fields: [
          [field, dir],
          ['_id', dir],
        ],
      });
    }
    assert.deepEqual(parseSort(undefined, legacyMedia), parseSort(undefined, media));
    assert.deepEqual(parseSort('random', legacyMedia), { random: true });
    badRequest(
      () => parseSort('name', legacyMedia),
      /allowed values for media are created_at, -created_at, modified_at, -modified_at, size, -size, created, -created, random$/,
    );
    badRequest(() => parseSort('size', media), /^Invalid sort "size"/);
    badRequest(() => parseSort('created', media), /^Invalid sort "created"/);
  });

  it('rejects unknown values, listing the allowed ones', () => {
    badRequest(
      () => parseSort('title', objects),
      /allowed values for objects are created_at, -created_at, modified_at, -modified_at, order, -order, metadata\.<key>, -metadata\.<key>, random$/,
    );
    badRequest(() => parseSort('--order', objects), /^Invalid sort "--order"/);
    badRequest(() => parseSort('-random', objects), /^Invalid sort "-random"/);
    badRequest(() => parseSort('x'.repeat(500), objects), /^Invalid sort "x{57}\.\.\."/);
  });
});
