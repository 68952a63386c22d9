import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { BadRequestError } from '../../lib/errors/http-errors.js';
import {
  MAX_FILTER_NODES,
  MAX_LIST_VALUES,
  MAX_LOGICAL_DEPTH,
  MAX_QUERY_LENGTH,
  MAX_REGEX_LENGTH,
  MAX_REPORTED_PROBLEMS,
} from '../../lib/query/limits.js';
import { OPERATORS, isOperator } from '../../lib/query/operators.js';
import { parseQueryParam } from '../../lib/query/parse-query-param.js';
import { compileFilter, translateFilter } from '../../lib/query/translate-filter.js';
import { parseIsoDate } from '../../lib/query/iso-date.js';
import type { FilterContext } from '../../lib/query/filter-types.js';
import { validateFilter } from '../../lib/query/validate-filter.js';
import { metadataPaths } from '../../lib/metafields/metadata-paths.js';
import { mf } from '../support/metadata-helpers.js';

const ctx: FilterContext = {
  metadataPaths: metadataPaths([
    { metafields: [mf('object', 'author'), mf('parent', 'seo', { children: [mf('objects', 'related')] })] },
  ]),
};
const ID = '65a1b2c3d4e5f6a7b8c9d0e1';
const ID2 = '65a1b2c3d4e5f6a7b8c9d0e2';

const problems = (q: unknown) => validateFilter(q, ctx);
/** Validation and translation as the routes run them, from already-parsed JSON. */
const compile = (q: unknown) => compileFilter(JSON.stringify(q), ctx);
const rejects = (q: unknown, pattern: RegExp) => {
  const found = problems(q);
  assert.ok(
    found.some((p) => pattern.test(p)),
    `expected a problem matching ${pattern}, got ${JSON.stringify(found)}`,
  );
};
const nest = (levels: number): Record<string, unknown> =>
  levels === 0 ? { title: 'x' } : { $and: [nest(levels - 1)] };

describe('query: parseQueryParam', () => {
  it('treats an absent or blank query as no filter', () => {
    assert.deepEqual(parseQueryParam(undefined), {});
    assert.deepEqual(parseQueryParam('  '), {});
  });

  it('returns the parsed object', () => {
    assert.deepEqual(parseQueryParam('{"type":"posts","title":"a+b"}'), { type: 'posts', title: 'a+b' });
  });

  it('rejects malformed JSON naming the problem', () => {
    assert.throws(
      () => parseQueryParam('{"type":'),
      (e: unknown) => {
        assert.ok(e instanceof BadRequestError);
        assert.equal(e.status, 400);
        assert.match(e.message, /^Malformed query: not valid JSON/);
        return true;
      },
    );
  });

  for (const [raw, kind] of [
    ['[1]', 'an array'],
    ['42', 'a number'],
    ['null', 'null'],
    ['"s"', 'a string'],
  ]) {
    it(`rejects ${kind} as the query`, () => {
      assert.throws(() => parseQueryParam(raw), { message: `Malformed query: must be a JSON object, got ${kind}` });
    });
  }

  it('rejects a query longer than the limit', () => {
    const raw = JSON.stringify({ title: 'x'.repeat(MAX_QUERY_LENGTH) });
    assert.throws(() => parseQueryParam(raw), /Malformed query: longer than 16384 characters/);
  });
});

describe('query: operator table', () => {
  it('holds exactly the operators of the query language', () => {
    assert.deepEqual(Object.keys(OPERATORS).sort(), [
      '$all',
      '$and',
      '$eq',
      '$gt',
      '$gte',
      '$in',
      '$lt',
      '$lte',
      '$ne',
      '$nin',
      '$nor',
      '$not',
      '$options',
      '$or',
      '$regex',
    ]);
  });

  it('does not resolve names through the prototype', () => {
    assert.equal(isOperator('constructor'), false);
    assert.equal(isOperator('__proto__'), false);
    assert.equal(isOperator('toString'), false);
  });
});

describe('query: accepted filters and their translation', () => {
  for (const op of ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']) {
    it(`translates ${op} 1:1`, () => {
      assert.deepEqual(compile({ 'metadata.price': { [op]: 10 } }), { 'metadata.price': { [op]: 10 } });
    });
  }

  for (const op of ['$in', '$nin', '$all']) {
    it(`translates ${op} 1:1`, () => {
      assert.deepEqual(compile({ 'metadata.tags': { [op]: ['a', 1, true, null] } }), {
        'metadata.tags': { [op]: ['a', 1, true, null] },
      });
    });
  }

  it('keeps implicit equality and the scalar types', () => {
    const q = { type: 'posts', title: 'Hello', 'metadata.count': 3, 'metadata.on': false, locale: null };
    assert.deepEqual(compile(q), q);
  });

  it('writes $regex with its $options, defaulting to no flags', () => {
    assert.deepEqual(compile({ title: { $regex: '^he', $options: 'imsx' } }), {
      title: { $regex: '^he', $options: 'imsx' },
    });
    assert.deepEqual(compile({ slug: { $regex: 'a.b' } }), { slug: { $regex: 'a.b', $options: '' } });
  });

  it('keeps field-level $not', () => {
    assert.deepEqual(compile({ title: { $not: { $regex: '^draft', $options: 'i' } } }), {
      title: { $not: { $regex: '^draft', $options: 'i' } },
    });
    assert.deepEqual(compile({ 'metadata.n': { $not: { $gt: 5 } } }), { 'metadata.n': { $not: { $gt: 5 } } });
  });

  it('translates $and, $or and $nor recursively', () => {
    const q = { $or: [{ title: 'a' }, { $and: [{ slug: 'b' }, { $nor: [{ 'metadata.x': 1 }] }] }] };
    assert.deepEqual(compile(q), q);
  });

  it('writes filter-level $not as $nor of the sub-filter', () => {
    assert.deepEqual(compile({ $not: { title: 'a', slug: 'b' } }), { $nor: [{ title: 'a', slug: 'b' }] });
  });

  it('merges filter-level $not into a $nor given alongside', () => {
    assert.deepEqual(compile({ $nor: [{ title: 'a' }], $not: { slug: 'b' } }), {
      $nor: [{ title: 'a' }, { slug: 'b' }],
    });
  });

  it('maps id to _id with ObjectId values', () => {
    const out = compile({ id: ID });
    assert.deepEqual(out, { _id: new ObjectId(ID) });
    assert.ok(out._id instanceof ObjectId);
    assert.deepEqual(compile({ id: { $in: [ID, ID2.toUpperCase()] } }), {
      _id: { $in: [new ObjectId(ID), new ObjectId(ID2)] },
    });
  });

  it('converts ISO dates of date keys to Date', () => {
    assert.deepEqual(compile({ created_at: { $gte: '2024-05-01', $lt: '2024-05-01T12:30:00.250+02:00' } }), {
      created_at: { $gte: new Date('2024-05-01T00:00:00Z'), $lt: new Date('2024-05-01T10:30:00.250Z') },
    });
    assert.deepEqual(compile({ modified_at: { $in: ['2024-02-29T08:00:00'] } }), {
      modified_at: { $in: [new Date('2024-02-29T08:00:00Z')] },
    });
    assert.deepEqual(compile({ published_at: null }), { published_at: null });
  });

  it('converts relationship paths to ObjectIds, nested paths included', () => {
    assert.deepEqual(compile({ 'metadata.author': ID, 'metadata.seo.related': { $all: [ID, ID2] } }), {
      'metadata.author': new ObjectId(ID),
      'metadata.seo.related': { $all: [new ObjectId(ID), new ObjectId(ID2)] },
    });
    assert.deepEqual(compile({ 'metadata.author': { $ne: null } }), { 'metadata.author': { $ne: null } });
  });

  it('leaves 24-hex strings of other paths as strings', () => {
    assert.deepEqual(compile({ 'metadata.code': ID }), { 'metadata.code': ID });
  });

  it('converts values inside logical operators and $not too', () => {
    assert.deepEqual(compile({ $or: [{ id: ID }, { created_at: { $not: { $lt: '2020-01-01' } } }] }), {
      $or: [{ _id: new ObjectId(ID) }, { created_at: { $not: { $lt: new Date('2020-01-01T00:00:00Z') } } }],
    });
  });

  it('accepts nesting up to the limit', () => {
    assert.deepEqual(problems(nest(MAX_LOGICAL_DEPTH)), []);
  });

  it('accepts an empty filter', () => {
    assert.deepEqual(compileFilter(undefined, ctx), {});
  });
});

describe('query: rejected filters', () => {
  it('rejects unknown keys listing the queryable ones', () => {
    rejects({ foo: 1 }, /^foo: unknown key "foo"; queryable keys are id, type, title, .*metadata\.<key>$/);
    rejects({ thumbnail: 'x' }, /unknown key "thumbnail"/);
  });

  it('points status to the status parameter', () => {
    assert.deepEqual(problems({ status: 'draft' }), ['status: status cannot be queried; use the status parameter']);
  });

  it('rejects bad metadata paths', () => {
    rejects({ metadata: 'x' }, /^metadata: query a Metafield by its path/);
    rejects({ 'metadata.': 1 }, /has an empty segment/);
    rejects({ 'metadata.a..b': 1 }, /has an empty segment/);
    rejects({ 'metadata.$where': 1 }, /segment "\$where" cannot start with "\$"/);
    rejects({ 'metadata.a b': 1 }, /segment "a b" may contain only letters, digits, _ and -/);
    rejects({ 'metadata.a.b.c.d.e.f.g': 1 }, /more than 6 segments/);
    assert.deepEqual(problems({ 'metadata.a.b.c.d.e.f': 1 }), []);
  });

  it('rejects paths below a relationship', () => {
    rejects(
      { 'metadata.author.title': 'x' },
      /metadata\.author is an Object relationship; query it by the related Object's id/,
    );
  });

  for (const op of [
    '$where',
    '$expr',
    '$function',
    '$lookup',
    '$text',
    '$elemMatch',
    '$exists',
    '$size',
    '$jsonSchema',
  ]) {
    it(`rejects ${op} at either level`, () => {
      rejects({ [op]: 'x' }, new RegExp(`^\\${op}: unsupported operator "\\${op}"$`));
      rejects({ title: { [op]: 'x' } }, new RegExp(`^title\\.\\${op}: unsupported operator "\\${op}"$`));
    });
  }

  it('rejects field operators at filter level and logical ones inside a field', () => {
    rejects({ $gt: 1 }, /^\$gt: \$gt must be applied to a field/);
    rejects({ title: { $or: [{ title: 'a' }] } }, /^title\.\$or: \$or is not allowed inside a field condition/);
  });

  it('rejects objects and arrays as values (operator injection)', () => {
    rejects({ title: { a: 1 } }, /^title: objects are not allowed as values/);
    rejects({ title: {} }, /^title: an empty object is not a condition/);
    rejects({ title: ['a'] }, /^title: an array value needs an operator/);
    rejects({ title: { $eq: 'a', where: 'x' } }, /^title\.where: "where" is not an operator/);
    rejects({ title: { $eq: { $gt: '' } } }, /^title\.\$eq: must be a string, number, boolean or null, got an object/);
  });

  it('rejects wrong value kinds', () => {
    rejects({ title: { $in: 'a' } }, /^title\.\$in: must be an array, got a string/);
    rejects({ title: { $gt: { a: 1 } } }, /^title\.\$gt: must be a string, number, boolean or null, got an object/);
    rejects({ title: { $lte: [1] } }, /^title\.\$lte: must be .* got an array/);
    rejects({ title: { $nin: [1, { a: 1 }] } }, /^title\.\$nin\[1\]: must be .* got an object/);
    rejects({ title: { $all: [[1]] } }, /^title\.\$all\[0\]: must be .* got an array/);
  });

  it('rejects too many list values', () => {
    const many = Array.from({ length: MAX_LIST_VALUES + 1 }, (_, i) => `v${i}`);
    rejects({ title: { $in: many } }, /^title\.\$in: more than 500 values$/);
    assert.deepEqual(problems({ title: { $in: many.slice(1) } }), []);
  });

  it('rejects over-long, invalid or misplaced regexes', () => {
    rejects({ title: { $regex: 'a'.repeat(MAX_REGEX_LENGTH + 1) } }, /^title\.\$regex: longer than 256 characters$/);
    assert.deepEqual(problems({ title: { $regex: 'a'.repeat(MAX_REGEX_LENGTH) } }), []);
    rejects({ title: { $regex: '(unclosed' } }, /^title\.\$regex: invalid regular expression: /);
    rejects({ title: { $regex: 5 } }, /^title\.\$regex: must be a string, got a number/);
    rejects({ id: { $regex: '^6' } }, /^id\.\$regex: \$regex applies only to text keys/);
    rejects({ created_at: { $regex: '2024' } }, /\$regex applies only to text keys/);
  });

  it('rejects bad $options', () => {
    rejects(
      { title: { $regex: 'a', $options: 'ig' } },
      /^title\.\$options: unsupported flag\(s\) "g"; allowed flags are i, m, s, x$/,
    );
    rejects({ title: { $regex: 'a', $options: 'ii' } }, /^title\.\$options: repeats a flag$/);
    rejects({ title: { $regex: 'a', $options: 1 } }, /^title\.\$options: must be a string of flags/);
    rejects({ title: { $options: 'i' } }, /^title\.\$options: \$options needs \$regex alongside$/);
  });

  it('rejects invalid ObjectIds for id and relationship paths', () => {
    rejects({ id: 'abc' }, /^id: "abc" is not a valid Object id \(24 hexadecimal characters\)$/);
    rejects({ id: null }, /^id: null is not a valid Object id/);
    rejects({ id: { $in: [ID, 'zz'] } }, /^id\.\$in\[1\]: "zz" is not a valid Object id/);
    rejects({ 'metadata.author': 'some-slug' }, /^metadata\.author: "some-slug" is not a valid Object id/);
    rejects({ 'metadata.seo.related': { $in: [12] } }, /^metadata\.seo\.related\.\$in\[0\]: 12 is not a valid/);
  });

  it('rejects invalid dates for date keys', () => {
    rejects({ created_at: 'yesterday' }, /^created_at: "yesterday" is not a valid ISO 8601 date/);
    rejects({ published_at: { $gt: '2023-02-29' } }, /^published_at\.\$gt: "2023-02-29" is not a valid ISO 8601 date/);
    rejects({ modified_at: { $lt: 1700000000000 } }, /^modified_at\.\$lt: 1700000000000 is not a valid ISO 8601 date/);
    rejects({ created_at: '2024-05-01T24:00:00Z' }, /is not a valid ISO 8601 date/);
  });

  it('rejects misuse of $not', () => {
    rejects({ title: { $not: 'a' } }, /^title\.\$not: must be a non-empty object of operators/);
    rejects({ title: { $not: {} } }, /^title\.\$not: must be a non-empty object of operators/);
    rejects({ title: { $not: { $not: { $eq: 'a' } } } }, /^title\.\$not\.\$not: \$not cannot be nested in \$not$/);
    rejects({ $not: [{ title: 'a' }] }, /^\$not: must be a filter object, got an array/);
  });

  it('rejects malformed logical operators', () => {
    rejects({ $or: [] }, /^\$or: must be a non-empty array of filter objects$/);
    rejects({ $and: { title: 'a' } }, /^\$and: must be a non-empty array of filter objects$/);
    rejects({ $nor: [{ title: 'a' }, 'x'] }, /^\$nor\[1\]: must be a filter object, got a string$/);
    rejects({ $or: [{ foo: 1 }] }, /^\$or\[0\]\.foo: unknown key "foo"/);
  });

  it('rejects nesting beyond the limit, without walking further', () => {
    const found = problems(nest(MAX_LOGICAL_DEPTH + 1));
    assert.equal(found.length, 1);
    assert.match(found[0]!, /\$and\[0\]: logical operators nested deeper than 8 levels$/);
    rejects(
      { $not: { $not: { $not: { $not: { $not: { $not: { $not: { $not: { $not: { title: 'a' } } } } } } } } } },
      /nested deeper than 8/,
    );
  });

  it('stops at the node limit with one problem', () => {
    const wide = Object.fromEntries(Array.from({ length: MAX_FILTER_NODES + 5 }, (_, i) => [`metadata.k${i}`, i]));
    assert.deepEqual(problems(wide), [`query has more than ${MAX_FILTER_NODES} conditions`]);
  });

  it('reports every problem of one filter, in order', () => {
    assert.deepEqual(problems({ foo: 1, id: 'x', title: { $in: 'a', $where: 'y' } }), [
      'foo: unknown key "foo"; queryable keys are id, type, title, slug, content, locale, created_by, modified_by, created_at, published_at, modified_at, metadata.<key>',
      'id: "x" is not a valid Object id (24 hexadecimal characters)',
      'title.$in: must be an array, got a string',
      'title.$where: unsupported operator "$where"',
    ]);
  });

  it('rejects a non-object query', () => {
    assert.deepEqual(problems([]), ['query must be a JSON object, got an array']);
  });
});

describe('query: prototype-style keys', () => {
  it('rejects __proto__, constructor and prototype as keys, segments and operators', () => {
    const q = JSON.parse(
      '{"__proto__": {"title": "x"}, "constructor": 1, "metadata.__proto__": 1, "metadata.a.constructor": 1}',
    );
    const found = problems(q);
    assert.equal(found.length, 4, JSON.stringify(found));
    assert.match(found[0]!, /^__proto__: unknown key "__proto__"/);
    assert.match(found[1]!, /^constructor: unknown key "constructor"/);
    assert.match(found[2]!, /segment "__proto__" is reserved/);
    assert.match(found[3]!, /segment "constructor" is reserved/);
    rejects(
      JSON.parse('{"title": {"$eq": "a", "__proto__": {"$gt": 1}}}'),
      /title\.__proto__: "__proto__" is not an operator/,
    );
    rejects({ title: { constructor: 1 } }, /objects are not allowed as values/);
    rejects({ $constructor: 1 }, /unsupported operator "\$constructor"/);
  });

  it('never pollutes prototypes while compiling', () => {
    assert.throws(() => compileFilter('{"__proto__": {"polluted": 1}, "title": {"__proto__": {"polluted": 1}}}', ctx));
    const out = compileFilter('{"$or": [{"title": "a"}]}', ctx);
    assert.equal(Object.getPrototypeOf(out), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('query: compileFilter errors', () => {
  it('throws one BadRequestError listing all problems joined by "; "', () => {
    assert.throws(
      () => compileFilter('{"foo":1,"status":"draft"}', ctx),
      (e: unknown) => {
        assert.ok(e instanceof BadRequestError);
        assert.equal(
          e.message,
          'Invalid query: foo: unknown key "foo"; queryable keys are id, type, title, slug, content, locale, created_by, modified_by, created_at, published_at, modified_at, metadata.<key>; status: status cannot be queried; use the status parameter',
        );
        return true;
      },
    );
  });

  it('caps the number of problems reported', () => {
    const q = Object.fromEntries(Array.from({ length: MAX_REPORTED_PROBLEMS + 7 }, (_, i) => [`bad${i}`, 1]));
    assert.throws(
      () => compileFilter(JSON.stringify(q), ctx),
      (e: unknown) => {
        assert.ok(e instanceof BadRequestError);
        assert.equal(e.message.split('; queryable').length - 1, MAX_REPORTED_PROBLEMS);
        assert.match(e.message, /; and 7 more problems$/);
        return true;
      },
    );
  });

  it('passes parse errors through unchanged', () => {
    assert.throws(() => compileFilter('{', ctx), /^BadRequestError: Malformed query/);
  });

  it('translateFilter on its own is pure', () => {
    const q = { id: ID };
    translateFilter(q, ctx);
    assert.deepEqual(q, { id: ID });
  });
});

describe('query: parseIsoDate', () => {
  it('accepts dates and date-times, UTC when no offset is given', () => {
    assert.equal(parseIsoDate('2024-02-29')?.toISOString(), '2024-02-29T00:00:00.000Z');
    assert.equal(parseIsoDate('2024-05-01 10:20')?.toISOString(), '2024-05-01T10:20:00.000Z');
    assert.equal(parseIsoDate('2024-05-01T10:20:30.123456Z')?.toISOString(), '2024-05-01T10:20:30.123Z');
    assert.equal(parseIsoDate('2024-05-01T10:20:30-05:30')?.toISOString(), '2024-05-01T15:50:30.000Z');
  });

  it('rejects impossible calendar values', () => {
    for (const bad of [
      '2024-02-30',
      '1900-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-01-01T10:60',
      '2024-1-1',
      '2024-01-01T10:00+25:00',
    ]) {
      assert.equal(parseIsoDate(bad), null, bad);
    }
  });
});
