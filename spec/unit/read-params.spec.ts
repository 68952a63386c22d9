import assert from 'node:assert/strict';
import { MAX_DEPTH } from '../../lib/query/limits.js';
import {
  DELETE_PARAMS,
  NO_PARAMS,
  paramSet,
  parseReadParams,
  type ParamName,
  type ParamSet,
} from '../../lib/query/read-params.js';

const EVERY = paramSet([
  'read_key',
  'preview_token',
  'query',
  'props',
  'status',
  'sort',
  'limit',
  'skip',
  'after',
  'depth',
  'useCache',
  'trigger_webhook',
]);
const ID = '65a1b2c3d4e5f6a7b8c9d0e1';

type Query = Record<string, string | string[]>;

function parse(query: Query, set: ParamSet<ParamName> = EVERY) {
  return parseReadParams(query, set);
}

function valuesOf(query: Query, set: ParamSet<ParamName> = EVERY) {
  const { values, problems } = parse(query, set);
  assert.deepEqual(problems, []);
  return values;
}

function problemsOf(query: Query, set: ParamSet<ParamName> = EVERY): string[] {
  return parse(query, set).problems;
}

const DEFAULTS = {
  read_key: undefined,
  preview_token: undefined,
  query: undefined,
  props: null,
  status: 'published',
  sort: undefined,
  limit: 1000,
  skip: 0,
  after: undefined,
  depth: 0,
  useCache: true,
  pretty: false,
  trigger_webhook: false,
};

describe('query: parseReadParams', () => {
  it('has the documented defaults when parameters are absent', () => {
    assert.deepEqual({ ...valuesOf({}) }, DEFAULTS);
  });

  it('treats an empty value as absent, as clients append parameters unconditionally', () => {
    const empty = Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, '']));
    assert.deepEqual({ ...valuesOf(empty) }, DEFAULTS);
    assert.deepEqual({ ...valuesOf({ use_cache: '' }) }, DEFAULTS);
  });

  it('parses every parameter', () => {
    const values = valuesOf({
      read_key: 'rk',
      preview_token: 'pt',
      query: '{"type":"posts"}',
      props: 'id, title,id',
      status: 'any',
      sort: '-created_at',
      limit: '5',
      after: ID.toUpperCase(),
      depth: String(MAX_DEPTH),
      useCache: 'false',
      pretty: '1',
      trigger_webhook: 'true',
    });
    assert.deepEqual(
      { ...values },
      {
        read_key: 'rk',
        preview_token: 'pt',
        query: '{"type":"posts"}',
        props: ['id', 'title'],
        status: 'any',
        sort: '-created_at',
        limit: 5,
        skip: 0,
        after: ID,
        depth: MAX_DEPTH,
        useCache: false,
        pretty: true,
        trigger_webhook: true,
      },
    );
  });

  it('returns a frozen object', () => {
    const values = valuesOf({ limit: '2' });
    assert.ok(Object.isFrozen(values));
    assert.throws(() => {
      (values as { limit: number }).limit = 3;
    }, TypeError);
  });

  it('reads use_cache exactly like useCache', () => {
    for (const name of ['useCache', 'use_cache']) {
      assert.equal(valuesOf({ [name]: 'false' }).useCache, false);
      assert.equal(valuesOf({ [name]: '0' }).useCache, false);
      assert.equal(valuesOf({ [name]: 'true' }).useCache, true);
      assert.deepEqual(problemsOf({ [name]: 'no' }), [`${name} must be true or false, got "no"`]);
    }
  });

  it('refuses useCache together with use_cache: they are one parameter', () => {
    assert.deepEqual(problemsOf({ useCache: 'true', use_cache: 'false' }), [
      'useCache and use_cache are one parameter: give it once',
    ]);
  });

  for (const bad of ['0', '-1', '1.5', 'abc', '1e3', '99999999999999999999', ' 5']) {
    it(`rejects limit=${JSON.stringify(bad)}`, () => {
      assert.deepEqual(problemsOf({ limit: bad }), [`limit must be an integer >= 1, got ${JSON.stringify(bad)}`]);
    });
  }

  it('rejects bad values of every other checked parameter, naming each', () => {
    const cases: [Query, string][] = [
      [{ skip: '-1' }, 'skip must be an integer >= 0, got "-1"'],
      [{ depth: '4' }, 'depth must be an integer from 0 to 3, got "4"'],
      [{ depth: '1.0' }, 'depth must be an integer from 0 to 3, got "1.0"'],
      [
        { after: 'abc' },
        'after must be the id of the previous page\'s last item (24 hexadecimal characters), got "abc"',
      ],
      [{ status: 'all' }, 'status must be one of published, draft, any, got "all"'],
      [{ pretty: 'maybe' }, 'pretty must be true or false, got "maybe"'],
      [{ trigger_webhook: 'yes' }, 'trigger_webhook must be true or false, got "yes"'],
      [{ props: 'a b' }, 'props: "a b" (each must be a dotted path of letters, digits, _ and -)'],
    ];
    for (const [query, message] of cases) assert.deepEqual(problemsOf(query), [message], JSON.stringify(query));
  });

  it('cuts a long bad value short in the message', () => {
    const [problem] = problemsOf({ status: 'x'.repeat(10_000) });
    assert.equal(problem, `status must be one of published, draft, any, got "${'x'.repeat(57)}..."`);
  });

  it('rejects every parameter given twice, naming it', () => {
    for (const name of Object.keys(DEFAULTS)) {
      assert.deepEqual(problemsOf({ [name]: ['1', '2'] }), [`${name} must be given once, got 2 values`], name);
    }
    assert.deepEqual(problemsOf({ use_cache: ['true', 'true', 'true'] }), [
      'use_cache must be given once, got 3 values',
    ]);
  });

  it('rejects skip together with after, even skip=0', () => {
    assert.deepEqual(problemsOf({ skip: '0', after: ID }), ['skip cannot be combined with after']);
    assert.equal(valuesOf({ skip: '', after: ID }).after, ID);
  });

  it('reports every problem in one list, in the order of the parameter table', () => {
    assert.deepEqual(
      problemsOf({ pretty: 'x', limit: '0', skip: 'x', depth: '9', status: 'nope', read_key: ['a', 'b'] }),
      [
        'read_key must be given once, got 2 values',
        'status must be one of published, draft, any, got "nope"',
        'limit must be an integer >= 1, got "0"',
        'skip must be an integer >= 0, got "x"',
        'depth must be an integer from 0 to 3, got "9"',
        'pretty must be true or false, got "x"',
      ],
    );
  });

  it('keeps defaults for invalid values, so a valid pretty still shapes the error body', () => {
    const { values, problems } = parse({ limit: '0', pretty: 'true' });
    assert.equal(problems.length, 1);
    assert.equal(values.limit, 1000);
    assert.equal(values.pretty, true);
  });

  it('ignores unknown parameters and those the route does not take, even when repeated or invalid', () => {
    const one = paramSet(['read_key', 'props']);
    const { values, problems } = parse({ limit: ['1', '2'], depth: 'x', colour: ['red', 'blue'], props: 'id' }, one);
    assert.deepEqual(problems, []);
    assert.deepEqual({ ...values }, { read_key: undefined, props: ['id'], pretty: false });
  });

  it('refuses a parameter a route names as refused, with its message', () => {
    const media = paramSet(['skip'], { after: 'after is not supported here; paginate with skip' });
    assert.deepEqual(problemsOf({ after: 'not-even-an-id' }, media), [
      'after is not supported here; paginate with skip',
    ]);
    assert.deepEqual(problemsOf({ after: '' }, media), []);
  });

  it('gives every set pretty, in table order', () => {
    assert.deepEqual(NO_PARAMS.names, ['pretty']);
    assert.deepEqual(DELETE_PARAMS.names, ['pretty', 'trigger_webhook']);
    assert.deepEqual(paramSet(['useCache', 'read_key']).names, ['read_key', 'useCache', 'pretty']);
  });

  it('reads parameters named like Object.prototype members as plain parameters', () => {
    const query: Query = Object.fromEntries([
      ['constructor', 'x'],
      ['__proto__', 'y'],
      ['limit', '3'],
    ]);
    assert.equal(valuesOf(query).limit, 3);
    assert.equal(valuesOf({ toString: '1' }).limit, 1000);
  });
});
