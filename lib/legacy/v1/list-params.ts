import type { ObjectTypeDoc } from '../../db/collections.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { parseQueryParam } from '../../query/parse-query-param.js';
import { parseProps } from '../../query/props.js';
import type { StatusFilter } from '../../query/read-params.js';
import { isObjectIdHex } from '../../util/object-id.js';
import { quote } from '../../util/quote.js';

/**
 * The v1 read parameters that v3 has no parameter for, turned into the v3 query language (so the
 * one validator and translator judge them) plus the v1 status, sort, props and Metafield switch.
 */
export interface V1ReadParams {
  /** A v3 `query` (JSON text) or undefined: no filter. */
  query: string | undefined;
  status: StatusFilter;
  sort: string;
  /** In v3 names, for the v3 projection; `_id` and `type_slug` map to `id` and `type`. */
  props: readonly string[] | null;
  hideMetafields: boolean;
  revision: string | undefined;
}

const V1_STATUS: Readonly<Record<string, StatusFilter>> = {
  published: 'published',
  draft: 'draft',
  all: 'any',
  any: 'any',
};
const V1_SORTS = ['created_at', 'modified_at', 'order', 'random'];
/** v1 property names → v3 ones; `metafields` is derived from metadata. */
const V1_PROPS: Readonly<Record<string, string>> = { _id: 'id', type_slug: 'type', metafields: 'metadata' };
const FILTER_NAMES = new Set(['_id', 'connected_to']);

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `a,b` of ids → `{$in: [a, b]}`; one value stays an equality. */
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

function one(query: Query, name: string, report: (p: string) => void): string | undefined {
  const raw = query[name];
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') {
    report(`${name} must be given once`);
    return undefined;
  }
  return raw;
}

function flag(query: Query, name: string, report: (p: string) => void): boolean {
  const raw = one(query, name, report);
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  report(`${name} must be true or false, got ${quote(raw)}`);
  return false;
}

/** The conditions v1's bracketed `metadata[key]` and `filters[name]` parameters add. */
function bracketed(query: Query, types: Iterable<ObjectTypeDoc>, report: (p: string) => void): object[] {
  const out: object[] = [];
  for (const name of Object.keys(query)) {
    const m = /^(metadata|filters)\[(.*)\]$/.exec(name);
    if (!m) continue;
    const [, kind, key = ''] = m;
    const raw = one(query, name, report);
    if (raw === undefined) continue;
    if (kind === 'metadata') out.push({ [`metadata.${key}`]: valueOrIds(raw) });
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

/**
 * Reads every v1 parameter of an Object read; every problem is reported in one 400. `fixed`
 * holds conditions the route itself imposes (the type of /object-type/:type_slug, a slug).
 */
export function parseV1Read(query: Query, types: Iterable<ObjectTypeDoc>, fixed: object[] = []): V1ReadParams {
  const problems: string[] = [];
  const report = (p: string): void => {
    problems.push(p);
  };
  const conditions: object[] = [...fixed];
  const plain = (name: string, field: string): void => {
    const v = one(query, name, report);
    if (v !== undefined) conditions.push({ [field]: v });
  };
  plain('type', 'type');
  plain('locale', 'locale');
  plain('created_by', 'created_by');
  const q = one(query, 'q', report);
  if (q !== undefined) {
    const pattern = { $regex: escapeRegex(q), $options: 'i' };
    conditions.push({ $or: [{ title: pattern }, { content: pattern }] });
  }
  const metafieldKey = one(query, 'metafield_key', report);
  const metafieldValue = one(query, 'metafield_value', report) ?? one(query, 'metafield_object_id', report);
  if (metafieldKey !== undefined && metafieldValue !== undefined) {
    conditions.push({ [`metadata.${metafieldKey}`]: metafieldValue });
  } else if ((metafieldKey === undefined) !== (metafieldValue === undefined)) {
    report('metafield_key and metafield_value (or metafield_object_id) go together');
  }
  conditions.push(...bracketed(query, types, report));
  const rawQuery = one(query, 'query', report);
  if (rawQuery !== undefined) conditions.push(parseQueryParam(rawQuery));

  const rawStatus = one(query, 'status', report) ?? 'published';
  const status = V1_STATUS[rawStatus];
  if (status === undefined) report(`status must be one of published, draft, all, got ${quote(rawStatus)}`);
  const sort = one(query, 'sort', report) ?? 'order';
  if (!V1_SORTS.includes(sort.replace(/^-/, ''))) {
    report(`sort must be one of ${V1_SORTS.map((s) => `${s}, -${s}`).join(', ')}, got ${quote(sort)}`);
  }
  const rawProps = one(query, 'props', report);
  const props =
    rawProps === undefined
      ? null
      : parseProps(
          rawProps
            .split(',')
            .map((p) => V1_PROPS[p.trim()] ?? p.trim())
            .join(','),
          report,
        );
  const hideMetafields = flag(query, 'hide_metafields', report);
  const revision = one(query, 'revision', report);
  if (problems.length > 0) throw new BadRequestError(`Invalid parameters: ${problems.join('; ')}`, 'invalid_parameter');
  const [only] = conditions;
  const filter = conditions.length > 1 ? { $and: conditions } : only;
  return {
    query: filter === undefined ? undefined : JSON.stringify(filter),
    status: status ?? 'published',
    sort,
    props,
    hideMetafields,
    revision,
  };
}
