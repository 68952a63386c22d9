import assert from 'node:assert/strict';
import { BucketSuite } from '../support/bucket-suite.js';
import fc from 'fast-check';
import request from 'supertest';
import {
  ALLOWED_OPERATORS,
  FORBIDDEN_OPERATORS,
  QUERY_OPERATORS,
  operatorsIn,
  watchOperators,
  type CommandLog,
} from '../support/command-operators.js';

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

/**
 * Filters that mostly pass validation, so translated operators do reach MongoDB, with a
 * forbidden operator slipped in now and then at filter or field level.
 */
const HEX = ['aaaaaaaaaaaaaaaaaaaaaaaa', '0123456789abcdef01234567'];
const text = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('One', 'Two', 'things'));
const VALUES: Record<string, fc.Arbitrary<unknown>> = {
  title: text,
  slug: text,
  type: text,
  locale: text,
  id: fc.constantFrom(...HEX),
  'metadata.ref': fc.constantFrom(...HEX, null),
  'metadata.n': fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constant(null)),
  created_at: fc.constantFrom('2020-01-01', '2999-01-01T00:00:00Z'),
};
const forbidden = fc.tuple(fc.constantFrom(...FORBIDDEN_OPERATORS), fc.jsonValue({ maxDepth: 1 }));
const condition = (value: fc.Arbitrary<unknown>) => {
  const op = fc.oneof(
    fc.tuple(fc.constantFrom('$eq', '$ne', '$gt', '$gte', '$lt', '$lte'), value).map(([o, v]) => ({ [o]: v })),
    fc.tuple(fc.constantFrom('$in', '$nin', '$all'), fc.array(value, { minLength: 1, maxLength: 3 })).map(([o, v]) => ({
      [o]: v,
    })),
    fc.record({ $regex: fc.constantFrom('^O', 'e$', 'T.o'), $options: fc.constantFrom('i', 'ms', '') }),
  );
  return fc.oneof(
    { weight: 3, arbitrary: value },
    { weight: 3, arbitrary: op },
    { weight: 1, arbitrary: op.map((o) => ({ $not: o })) },
    { weight: 1, arbitrary: fc.tuple(op, forbidden).map(([o, [f, v]]) => ({ ...o, [f]: v })) },
  );
};
const fieldFilter = fc
  .constantFrom(...Object.keys(VALUES))
  .chain((key) => condition(VALUES[key] ?? text).map((c) => ({ [key]: c })));
const grammatical: fc.Arbitrary<Record<string, unknown>> = fc.letrec((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fieldFilter,
    fc
      .tuple(fc.constantFrom('$and', '$or', '$nor'), fc.array(tie('filter'), { minLength: 1, maxLength: 3 }))
      .map(([op, fs]) => ({ [op]: fs })),
    tie('filter').map((f) => ({ $not: f })),
    fc.tuple(tie('filter'), forbidden).map(([f, [op, v]]) => ({ ...(f as object), [op]: v })),
  ),
})).filter;

describe('GET /objects: no query string reaches a 5xx (property-based)', () => {
  let readKey: string;
  let ids: string[];
  const suite = new BucketSuite('fuzz', async () => {
    readKey = suite.keys.read_key!;
    const write = (path: string, body: object) =>
      request(suite.harness.app)
        .post(`/v3/buckets/fuzz${path}`)
        .set('Authorization', `Bearer ${suite.keys.write_key}`)
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
    const second = await write('/objects', {
      title: 'Two',
      type: 'things',
      metadata: { n: 2, ref: first.body.object.id },
    });
    ids = [first.body.object.id, second.body.object.id];
  });
  // Every command any request sends is checked, not only the status it ends with.
  let commands: CommandLog;
  beforeEach(() => {
    commands = watchOperators(suite.harness.client);
  });
  afterEach(() => {
    commands.stop();
    assert.deepEqual(Object.fromEntries(commands.unexpected), {}, 'operators outside the whitelist reached MongoDB');
  });
  after(() => {
    assert.deepEqual(suite.harness.errors, []);
  });

  it('the operator check sees every key of a command and flags what is not whitelisted', () => {
    const ops = operatorsIn({
      find: 'objects',
      filter: { $and: [{ title: { $eq: 'x' } }, { $expr: { $function: {} } }] },
      $db: 'x',
    });
    assert.deepEqual([...ops].sort(), ['$and', '$eq', '$expr', '$function']);
    for (const op of FORBIDDEN_OPERATORS) assert.equal(ALLOWED_OPERATORS.has(op), false, op);
  });

  /** A property run's time limit, for its count of requests (at most 1,500) on a loaded machine. */
  const FUZZ_TIMEOUT_MS = 600_000;

  const get = (query: string, extra = '') =>
    request(suite.harness.app).get(`/v3/buckets/fuzz/objects?read_key=${readKey}&query=${query}${extra}`);

  it('answers every structured filter with 200, 400 or 404', async function () {
    // Sized for the work on a busy 2-core machine: up to 0.4 s per request with four busy loops beside it.
    this.timeout(FUZZ_TIMEOUT_MS);
    await fc.assert(
      fc.asyncProperty(filter, async (f) => {
        const res = await get(encodeURIComponent(JSON.stringify(f)), '&useCache=false');
        assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${JSON.stringify(f)}: ${res.text}`);
        assert.equal(typeof res.body.message === 'string' || Array.isArray(res.body.objects), true);
      }),
      { numRuns: 1500 },
    );
  });

  it('sends only whitelisted operators for filters that pass validation, and never a forbidden one', async function () {
    // Sized for the work on a busy 2-core machine: up to 0.4 s per request with four busy loops beside it.
    this.timeout(FUZZ_TIMEOUT_MS);
    let reached = 0;
    await fc.assert(
      fc.asyncProperty(grammatical, async (f) => {
        const res = await get(encodeURIComponent(JSON.stringify(f)), '&useCache=false');
        assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${JSON.stringify(f)}: ${res.text}`);
        const used = operatorsIn(f);
        if (FORBIDDEN_OPERATORS.some((op) => used.has(op))) assert.equal(res.status, 400, JSON.stringify(f));
        if (res.status !== 400) reached++;
      }),
      { numRuns: 1000 },
    );
    // The whitelist check means something only if translated filters did reach the database.
    assert.ok(reached > 200, `only ${reached} filters passed validation`);
    for (const op of QUERY_OPERATORS) assert.ok(commands.seen.has(op), `${op} never reached MongoDB`);
  });

  it('answers every raw string with 200, 400 or 404', async function () {
    // Sized for the work on a busy 2-core machine: up to 0.4 s per request with four busy loops beside it.
    this.timeout(FUZZ_TIMEOUT_MS);
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 80, unit: 'binary' }), async (s) => {
        const res = await get(encodeURIComponent(s), '&useCache=false');
        assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${JSON.stringify(s)}`);
      }),
      { numRuns: 1000 },
    );
  });

  it('answers random other list parameters with 200, 400 or 404', async function () {
    // Sized for the work on a busy 2-core machine: up to 0.4 s per request with four busy loops beside it.
    this.timeout(FUZZ_TIMEOUT_MS);
    const param = fc.constantFrom('limit', 'skip', 'after', 'sort', 'status', 'depth', 'props', 'useCache', 'pretty');
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('0', '1', '3', 'random', '-metadata.n', 'title,metadata', 'any', ...HEX),
    );
    await fc.assert(
      fc.asyncProperty(param, value, async (name, value) => {
        const res = await get('', `&${name}=${encodeURIComponent(value)}`);
        assert.ok([200, 400, 404].includes(res.status), `${res.status} for ${name}=${JSON.stringify(value)}`);
      }),
      { numRuns: 500 },
    );
  });

  it('whitelists every stage the service sends for depth, cursors, random order and props', async () => {
    const filter = encodeURIComponent(JSON.stringify({ type: 'things', 'metadata.n': { $gte: 1 } }));
    for (const extra of [
      `&depth=3&sort=-metadata.n&after=${ids[0]}`,
      '&depth=1&sort=random',
      '&sort=random&props=title,metadata',
      `&depth=2&limit=1&after=${ids[1]}&sort=created_at`,
    ]) {
      const res = await get(filter, `${extra}&useCache=false`);
      assert.ok([200, 404].includes(res.status), `${res.status} for ${extra}: ${res.text}`);
    }
    for (const stage of ['$sample', '$project', '$in', '$type']) {
      assert.ok(commands.seen.has(stage), `${stage} was not sent: the check above did not cover it`);
    }
  });
});
