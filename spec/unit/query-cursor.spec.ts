import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { keysetFilter } from '../../lib/query/cursor.js';

type Doc = Record<string, unknown>;
type Fields = Array<[string, 1 | -1]>;

// ---- A small model of MongoDB's sort order and matcher, written independently of lib/ ----

/** Sort brackets of the value types these tests store (MongoDB's documented order). */
function bracket(v: unknown): number {
  if (v === null || v === undefined) return 1;
  if (typeof v === 'number') return 2;
  if (typeof v === 'string') return 3;
  if (v instanceof ObjectId) return 7;
  if (typeof v === 'boolean') return 8;
  if (v instanceof Date) return 9;
  return 4;
}

const TYPE_ALIAS: Record<number, string> = {
  2: 'number',
  3: 'string',
  4: 'object',
  7: 'objectId',
  8: 'bool',
  9: 'date',
};

function compareValues(a: unknown, b: unknown): number {
  const diff = bracket(a) - bracket(b);
  if (diff !== 0) return diff;
  if (a instanceof ObjectId && b instanceof ObjectId) return a.toHexString().localeCompare(b.toHexString());
  if (a instanceof Date && b instanceof Date) return a.getTime() - b.getTime();
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return 0;
}

function get(doc: Doc, path: string): unknown {
  let node: unknown = doc;
  for (const seg of path.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, seg)) return undefined;
    node = (node as Doc)[seg];
  }
  return node;
}

const comparator = (fields: Fields) => (a: Doc, b: Doc) => {
  for (const [path, dir] of fields) {
    const c = compareValues(get(a, path), get(b, path));
    if (c !== 0) return c * dir;
  }
  return 0;
};

/** $gt/$lt compare within one bracket only; $eq null also matches a missing field. */
const OPS: Record<string, (value: unknown, arg: unknown) => boolean> = {
  $eq: (v, arg) =>
    arg === null ? v === null || v === undefined : bracket(v) === bracket(arg) && compareValues(v, arg) === 0,
  $gt: (v, arg) => arg !== null && bracket(v) === bracket(arg) && compareValues(v, arg) > 0,
  $lt: (v, arg) => arg !== null && bracket(v) === bracket(arg) && compareValues(v, arg) < 0,
  $type: (v, arg) => {
    const alias = v === undefined || v === null ? undefined : TYPE_ALIAS[bracket(v)];
    return alias !== undefined && (arg as string[]).includes(alias);
  },
};

function matches(doc: Doc, filter: Doc): boolean {
  return Object.entries(filter).every(([key, cond]) => {
    if (key === '$or') return (cond as Doc[]).some((f) => matches(doc, f));
    if (key === '$and') return (cond as Doc[]).every((f) => matches(doc, f));
    if (key === '$nor') return !(cond as Doc[]).some((f) => matches(doc, f));
    return Object.entries(cond as Doc).every(([op, arg]) => {
      assert.ok(Object.hasOwn(OPS, op), `matcher does not know ${op}`);
      return OPS[op]!(get(doc, key), arg);
    });
  });
}

// ---- Fixtures ----

function prng(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

/** 250 documents with heavy ties, nulls, missing fields and mixed types in one sort field. */
function fixtures(): Doc[] {
  const rand = prng(7);
  const ranks: unknown[] = [undefined, null, 0, 2, 2, 2.5, -1, 'a', 'b', 'b', '', true, false, new Date(5)];
  return Array.from({ length: 250 }, (_, i) => {
    const hex = Array.from({ length: 24 }, () => Math.floor(rand() * 16).toString(16)).join('');
    const rank = ranks[Math.floor(rand() * ranks.length)];
    const doc: Doc = {
      _id: new ObjectId(hex),
      created_at: new Date(Date.UTC(2024, 0, 1 + Math.floor(rand() * 12))),
      order: Math.floor(rand() * 5),
    };
    if (i % 17 !== 0) doc.metadata = rank === undefined ? { other: 1 } : { rank };
    return doc;
  });
}

function walk(docs: Doc[], fields: Fields, pageSize: number, filterFor = keysetFilter): Doc[] {
  const seen: Doc[] = [];
  let last: Doc | undefined;
  for (let guard = 0; guard <= docs.length; guard++) {
    const filter = last ? filterFor(fields, last) : {};
    const page = docs
      .filter((d) => matches(d, filter))
      .sort(comparator(fields))
      .slice(0, pageSize);
    if (page.length === 0) break;
    seen.push(...page);
    last = page[page.length - 1];
  }
  return seen;
}

const ids = (docs: Doc[]) => docs.map((d) => (d._id as ObjectId).toHexString());

describe('query: keysetFilter pagination (in-memory model of MongoDB)', () => {
  const docs = fixtures();
  const orders: Fields[] = [
    [
      ['metadata.rank', 1],
      ['_id', 1],
    ],
    [
      ['metadata.rank', -1],
      ['_id', -1],
    ],
    [
      ['created_at', 1],
      ['_id', 1],
    ],
    [
      ['created_at', -1],
      ['_id', -1],
    ],
    [
      ['order', -1],
      ['_id', -1],
    ],
    [
      ['order', 1],
      ['metadata.rank', -1],
      ['_id', -1],
    ],
    [['_id', 1]],
  ];

  it('has fixtures with ties, nulls and missing values', () => {
    const ranks = docs.map((d) => get(d, 'metadata.rank'));
    assert.ok(ranks.filter((r) => r === undefined).length > 20);
    assert.ok(ranks.filter((r) => r === null).length > 5);
    assert.ok(new Set(docs.map((d) => (d.created_at as Date).getTime())).size < 13);
  });

  for (const fields of orders) {
    for (const pageSize of [1, 7, 100]) {
      it(`walks ${JSON.stringify(fields)} in pages of ${pageSize} with no duplicates and no gaps`, () => {
        const expected = ids([...docs].sort(comparator(fields)));
        const walked = ids(walk(docs, fields, pageSize));
        assert.equal(new Set(walked).size, walked.length, 'duplicates');
        assert.deepEqual(walked, expected);
      });
    }
  }

  it('would detect gaps: a filter ignoring type brackets and nulls loses documents', () => {
    const naive = (fields: Fields, last: Doc): Doc => {
      const first = fields[0];
      assert.ok(first, 'a sort has at least one field');
      const [path, dir] = first;
      const op = dir === 1 ? '$gt' : '$lt';
      return {
        $or: [
          { [path]: { [op]: get(last, path) ?? null } },
          { [path]: { $eq: get(last, path) ?? null }, _id: { [op]: last._id } },
        ],
      };
    };
    const walked = walk(
      docs,
      [
        ['metadata.rank', 1],
        ['_id', 1],
      ],
      7,
      naive,
    );
    assert.ok(walked.length < docs.length);
  });
});

describe('query: keysetFilter shape', () => {
  const id = new ObjectId('65a1b2c3d4e5f6a7b8c9d0e1');
  const d = new Date('2024-05-01T00:00:00Z');

  it('compares _id alone without type brackets', () => {
    assert.deepEqual(keysetFilter([['_id', 1]], { _id: id }), { _id: { $gt: id } });
    assert.deepEqual(keysetFilter([['_id', -1]], { _id: id }), { _id: { $lt: id } });
  });

  it('ascending: greater values, then later brackets, then ties broken by _id', () => {
    assert.deepEqual(
      keysetFilter(
        [
          ['created_at', 1],
          ['_id', 1],
        ],
        { _id: id, created_at: d },
      ),
      {
        $or: [
          { $or: [{ created_at: { $gt: d } }, { created_at: { $type: ['timestamp', 'regex', 'maxKey'] } }] },
          { created_at: { $eq: d }, _id: { $gt: id } },
        ],
      },
    );
  });

  it('descending: smaller values, earlier brackets and null or missing', () => {
    assert.deepEqual(
      keysetFilter(
        [
          ['metadata.n', -1],
          ['_id', -1],
        ],
        { _id: id, metadata: { n: 3 } },
      ),
      {
        $or: [
          {
            $or: [
              { 'metadata.n': { $lt: 3 } },
              { 'metadata.n': { $eq: null } },
              { 'metadata.n': { $type: ['minKey'] } },
            ],
          },
          { 'metadata.n': { $eq: 3 }, _id: { $lt: id } },
        ],
      },
    );
  });

  it('treats a missing value as null: ascending continues with every non-null bracket', () => {
    const out = keysetFilter(
      [
        ['metadata.n', 1],
        ['_id', 1],
      ],
      { _id: id },
    );
    assert.deepEqual(out, {
      $or: [
        {
          'metadata.n': {
            $type: [
              'number',
              'string',
              'object',
              'binData',
              'objectId',
              'bool',
              'date',
              'timestamp',
              'regex',
              'maxKey',
            ],
          },
        },
        { 'metadata.n': { $eq: null }, _id: { $gt: id } },
      ],
    });
  });

  it('descending after null only leaves MinKey, then the null ties', () => {
    assert.deepEqual(
      keysetFilter(
        [
          ['metadata.n', -1],
          ['_id', -1],
        ],
        { _id: id, metadata: { n: null } },
      ),
      {
        $or: [{ 'metadata.n': { $type: ['minKey'] } }, { 'metadata.n': { $eq: null }, _id: { $lt: id } }],
      },
    );
  });

  it('does not read inherited properties of the last document', () => {
    const out = keysetFilter(
      [
        ['constructor', 1],
        ['_id', 1],
      ],
      { _id: id },
    ) as { $or: Doc[] };
    assert.deepEqual(out.$or[1], { constructor: { $eq: null }, _id: { $gt: id } });
  });
});
