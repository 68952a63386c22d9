import assert from 'node:assert/strict';
import fc from 'fast-check';
import request from 'supertest';
import { freshHarness, type Harness } from '../support/harness.js';

const keys = [
  'id',
  'type',
  'title',
  'slug',
  'content',
  'locale',
  'status',
  'created_at',
  'modified_at',
  'published_at',
  'created_by',
  'metadata.n',
  'metadata.ref',
  'metadata.a.b',
  'metadata',
  '$where',
  '',
  '__proto__',
  'constructor',
  'metadata..x',
];
const operators = [
  '$eq',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$in',
  '$all',
  '$ne',
  '$nin',
  '$regex',
  '$options',
  '$and',
  '$or',
  '$not',
  '$nor',
  '$expr',
  '$where',
  '$elemMatch',
  '$exists',
  '$function',
];

/** Values biased towards what the grammar cares about: operators, keys, ids, dates, regexes. */
const leaf = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    'aaaaaaaaaaaaaaaaaaaaaaaa',
    '2026-01-01',
    '2026-01-01T00:00:00Z',
    '(',
    '[a-',
    '.*',
    '^a',
    'imsx',
    'g',
    '\\',
    'ab{1000000}',
  ),
);
const filter = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...keys, ...operators), tie('node'), { maxKeys: 4 }),
  ),
})).node;

describe('GET /objects: no query string reaches a 5xx (property-based)', () => {
  let h: Harness;
  let readKey: string;
  before(async () => {
    h = await freshHarness();
    const keys = await h.bucket('fuzz');
    readKey = keys.read_key!;
    const write = (path: string, body: object) =>
      request(h.app)
        .post(`/v3/buckets/fuzz${path}`)
        .set('Authorization', `Bearer ${keys.write_key}`)
        .send(body)
        .expect(200);
    await write('/object-types', {
      title: 'Things',
      metafields: [
        { type: 'number', title: 'N', key: 'n', value: '', sortable: true },
        { type: 'object', title: 'Ref', key: 'ref', value: '', object_type: 'things' },
      ],
    });
    const first = await write('/objects', { title: 'One', type: 'things', metadata: { n: 1 } });
    await write('/objects', { title: 'Two', type: 'things', metadata: { n: 2, ref: first.body.object.id } });
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  const get = (query: string, extra = '') =>
    request(h.app).get(`/v3/buckets/fuzz/objects?read_key=${readKey}&query=${query}${extra}`);

  it('answers every structured filter with 200, 400 or 404', async () => {
    await fc.assert(
      fc.asyncProperty(filter, async (f) => {
        const res = await get(encodeURIComponent(JSON.stringify(f)), '&useCache=false');
        assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${JSON.stringify(f)}: ${res.text}`);
        assert.equal(typeof res.body.message === 'string' || Array.isArray(res.body.objects), true);
      }),
      { numRuns: 1500 },
    );
  });

  it('answers every raw string with 200, 400 or 404', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80, unit: 'binary' }), async (s) => {
        const res = await get(encodeURIComponent(s), '&useCache=false');
        assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${JSON.stringify(s)}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('answers random other list parameters with 200, 400 or 404', async () => {
    const param = fc.constantFrom('limit', 'skip', 'after', 'sort', 'status', 'depth', 'props', 'useCache', 'pretty');
    await fc.assert(
      fc.asyncProperty(param, fc.string({ maxLength: 30 }), async (name, value) => {
        const res = await get('', `&${name}=${encodeURIComponent(value)}`);
        assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${name}=${JSON.stringify(value)}`);
      }),
      { numRuns: 500 },
    );
  });
});
