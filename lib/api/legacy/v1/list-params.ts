import type { ObjectTypeDoc } from '../../../db/collections.js';
import type { MetafieldType } from '../../../types/metafield.js';
import { BadRequestError } from '../../../errors/http-errors.js';
import { MAX_REGEX_LENGTH } from '../../../query/limits.js';
import { parseQueryParam } from '../../../query/parse-query-param.js';
import { parseProps } from '../../../query/props.js';
import type { StatusFilter } from '../../../query/read-params.js';
import { isObjectIdHex } from '../../../util/values.js';
import { escapeRegex } from '../../../util/escape-regex.js';
import { quote } from '../../../util/quote.js';
import { kindsByPath, typedQueryValue } from './string-values.js';

/** What every v1 Object list reads besides the shared parameters. */
export const V1_OBJECT_LIST_NAMES = [
  'type',
  'status',
  'sort',
  'hide_metafields',
  'locale',
  'q',
  'query',
  'props',
  'created_by',
  'metadata',
  'filters',
  'metafield_key',
  'metafield_value',
  'metafield_object_id',
] as const;
/**
 * The v1 read parameters v3 has no parameter for. `metadata` and `filters` stand for their
 * bracketed families (`metadata[key]`, `filters[_id]`, `filters[connected_to]`).
 */
export const V1_PARAM_NAMES = [
  ...V1_OBJECT_LIST_NAMES,
  'metafield_value_has',
  'metafield_object_slug',
  'revision',
] as const;
export type V1ParamName = (typeof V1_PARAM_NAMES)[number];

/** What the v1 parameters amount to: a v3 `query` plus the v1 status, sort, props and Metafield switch. */
export interface V1ReadParams {
  /** A v3 `query` (JSON text) or undefined: no filter. */
  query: string | undefined;
  status: StatusFilter;
  sort: string;
  /** For the v3 projection: v1 names mapped to the fields the v1 shape is made from. */
  projection: readonly string[] | null;
  /** As the client named them, picked from the finished v1 shape. */
  props: readonly string[] | null;
  hideMetafields: boolean;
  revision: string | undefined;
}

/** Conditions the route adds: its own (the type of /object-type/:type_slug, a slug) and looked-up ids. */
export interface V1ReadContext {
  fixed?: object[];
  /** Ids of the Objects `metafield_object_slug` names, looked up by the caller (find-object.ts). */
  slugIds?: readonly string[];
}

const V1_STATUS: Readonly<Record<string, StatusFilter>> = {
  published: 'published',
  draft: 'draft',
  all: 'any',
  any: 'any',
};
const V1_SORTS = ['created_at', 'modified_at', 'order'];
/** v1 property names → the v3 fields they are rendered from. */
const PROJECTED: Readonly<Record<string, readonly string[]>> = {
  _id: ['id'],
  type_slug: ['type'],
  metafields: ['metadata', 'type'],
  options: ['type'],
};
const FILTER_NAMES = new Set(['_id', 'connected_to']);

/** `a,b` of ids → `{$in: [a, b]}` (any of them); anything else stays an equality. */
function valueOrIds(raw: string): unknown {
  const parts = raw.split(',').map((p) => p.trim());
  return parts.length > 1 && parts.every(isObjectIdHex) ? { $in: parts } : raw;
}

function relationshipKeys(types: Iterable<ObjectTypeDoc>): string[] {
  const keys = new Set<string>();
  for (const t of types)
    for (const m of t.metafields) if (m.type === 'object' || m.type === 'objects') keys.add(`metadata.${m.key}`);
  return [...keys];
}

type Query = Readonly<Record<string, unknown>>;
type Report = (problem: string) => void;
/** The Metafield kinds each key path has in the Bucket's types (string-values.ts). */
type Kinds = ReadonlyMap<string, ReadonlySet<MetafieldType>>;

/** A v1 string compared with the Metafield at `key`, read as that Metafield's kind reads it. */
function metadataValue(name: string, key: string, raw: string, kinds: Kinds, report: Report): unknown {
  return typedQueryValue(name, key, raw, kinds.get(key), valueOrIds, report);
}

function one(query: Query, name: string, report: Report): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') {
    report(`${name} must be given once`);
    return undefined;
  }
  return raw;
}

function flag(query: Query, name: string, report: Report): boolean {
  const raw = one(query, name, report);
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  report(`${name} must be true or false, got ${quote(raw)}`);
  return false;
}

/** A case-insensitive substring match; the text is escaped, so it never acts as a pattern. */
function contains(name: string, text: string, report: Report): object {
  const pattern = escapeRegex(text);
  if (pattern.length > MAX_REGEX_LENGTH) report(`${name} is too long: at most ${MAX_REGEX_LENGTH} characters`);
  return { $regex: pattern, $options: 'i' };
}

/** The conditions v1's bracketed `metadata[key]` and `filters[name]` parameters add. */
function bracketed(
  query: Query,
  names: ReadonlySet<string>,
  types: readonly ObjectTypeDoc[],
  kinds: Kinds,
  report: Report,
) {
  const out: object[] = [];
  for (const name of Object.keys(query)) {
    const m = /^(metadata|filters)\[(.*)\]$/.exec(name);
    if (!m) continue;
    const [, kind = '', key = ''] = m;
    if (!names.has(kind)) continue;
    const raw = one(query, name, report);
    if (raw === undefined) continue;
    if (kind === 'metadata') out.push({ [`metadata.${key}`]: metadataValue(name, key, raw, kinds, report) });
    else if (!FILTER_NAMES.has(key))
      report(`filters[${key}] is not a filter; use filters[_id] or filters[connected_to]`);
    else if (key === '_id') out.push({ id: { $in: raw.split(',').map((p) => p.trim()) } });
    else {
      const keys = relationshipKeys(types);
      // No relationship Metafield anywhere: nothing can reference the id.
      out.push(keys.length ? { $or: keys.map((k) => ({ [k]: raw })) } : { id: { $in: [] } });
    }
  }
  return out;
}

/** The deprecated search: `metafield_key` with exactly one way to match its value. */
function deprecatedSearch(query: Query, names: ReadonlySet<string>, ctx: V1ReadContext, kinds: Kinds, report: Report) {
  const given = (name: V1ParamName) => (names.has(name) ? one(query, name, report) : undefined);
  const key = given('metafield_key');
  const matches: [string, () => unknown][] = [];
  const value = given('metafield_value');
  if (value !== undefined)
    matches.push(['metafield_value', () => metadataValue('metafield_value', key ?? '', value, kinds, report)]);
  const id = given('metafield_object_id');
  if (id !== undefined) matches.push(['metafield_object_id', () => id]);
  const has = given('metafield_value_has');
  if (has !== undefined) matches.push(['metafield_value_has', () => contains('metafield_value_has', has, report)]);
  if (given('metafield_object_slug') !== undefined)
    matches.push(['metafield_object_slug', () => ({ $in: ctx.slugIds ?? [] })]);
  const [match, ...more] = matches;
  if (key === undefined && match === undefined) return [];
  if (key === undefined || match === undefined || more.length > 0) {
    const of = 'metafield_value, metafield_object_id, metafield_value_has or metafield_object_slug';
    report(`metafield_key goes with exactly one of ${of}`);
    return [];
  }
  return [{ [`metadata.${key}`]: match[1]() }];
}

function v1Props(raw: string | undefined, report: Report): { props: string[] | null; projection: string[] | null } {
  const props = raw === undefined ? null : parseProps(raw, report);
  if (props === null) return { props: null, projection: null };
  const projection = new Set<string>();
  for (const p of props) {
    const [head = p, ...rest] = p.split('.');
    const mapped = PROJECTED[head];
    if (mapped === undefined) projection.add(p);
    else if (head === '_id' || head === 'type_slug') for (const m of mapped) projection.add([m, ...rest].join('.'));
    else for (const m of mapped) projection.add(m);
  }
  return { props: [...props], projection: [...projection] };
}

/**
 * Reads the v1 parameters `names` lists (the rest are ignored, as every route ignores what it
 * does not take), turned into the v3 query language so the one validator and translator judge
 * them; every problem is reported in one 400.
 */
export function parseV1Read(
  query: Query,
  names: readonly V1ParamName[],
  types: Iterable<ObjectTypeDoc>,
  ctx: V1ReadContext = {},
): V1ReadParams {
  const typeList = [...types];
  const kinds = kindsByPath(typeList);
  const problems: string[] = [];
  const report = (p: string): void => {
    problems.push(p);
  };
  const takes = new Set<string>(names);
  const given = (name: V1ParamName) => (takes.has(name) ? one(query, name, report) : undefined);
  const conditions: object[] = [...(ctx.fixed ?? [])];
  for (const field of ['type', 'locale', 'created_by'] as const) {
    const v = given(field);
    if (v !== undefined) conditions.push({ [field]: v });
  }
  const q = given('q');
  if (q !== undefined) {
    const pattern = contains('q', q, report);
    conditions.push({ $or: [{ title: pattern }, { content: pattern }] });
  }
  conditions.push(...deprecatedSearch(query, takes, ctx, kinds, report));
  conditions.push(...bracketed(query, takes, typeList, kinds, report));
  const rawQuery = given('query');
  if (rawQuery !== undefined) conditions.push(parseQueryParam(rawQuery));

  const rawStatus = given('status') ?? 'published';
  const status = V1_STATUS[rawStatus];
  if (status === undefined) report(`status must be one of published, draft, all, got ${quote(rawStatus)}`);
  const sort = given('sort') ?? 'order';
  if (sort !== 'random' && !V1_SORTS.includes(sort.replace(/^-/, ''))) {
    report(`sort must be one of ${V1_SORTS.map((s) => `${s}, -${s}`).join(', ')}, random, got ${quote(sort)}`);
  }
  const { props, projection } = v1Props(given('props'), report);
  const hideMetafields = takes.has('hide_metafields') && flag(query, 'hide_metafields', report);
  const revision = given('revision');
  if (problems.length > 0) throw new BadRequestError(`Invalid parameters: ${problems.join('; ')}`, 'invalid_parameter');
  const [only] = conditions;
  const filter = conditions.length > 1 ? { $and: conditions } : only;
  return {
    query: filter === undefined ? undefined : JSON.stringify(filter),
    status: status ?? 'published',
    sort,
    projection,
    props,
    hideMetafields,
    revision,
  };
}
