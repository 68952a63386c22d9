/* Which stored field a query key names, and as what kind of value (lib/query/validate-filter.ts checks the rest). */
import { MAX_METADATA_PATH_SEGMENTS } from './limits.js';
import type { FieldInfo, FilterContext } from './filter-types.js';

const FIXED_FIELDS: ReadonlyMap<string, FieldInfo> = new Map<string, FieldInfo>([
  ['id', { storagePath: '_id', valueType: 'id' }],
  ...(['type', 'title', 'slug', 'content', 'locale', 'created_by', 'modified_by'] as const).map(
    (k): [string, FieldInfo] => [k, { storagePath: k, valueType: 'text' }],
  ),
  ...(['created_at', 'published_at', 'modified_at'] as const).map((k): [string, FieldInfo] => [
    k,
    { storagePath: k, valueType: 'date' },
  ]),
]);

export const QUERYABLE_KEYS: readonly string[] = [...FIXED_FIELDS.keys(), 'metadata.<key>'];

const SEGMENT = /^[A-Za-z0-9_-]+$/;
/** Legal as Mongo field names, but they reach JavaScript prototypes wherever paths are walked. */
const RESERVED_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);
/** A queryable key's storage path and value type, or the problem with the key. */
export function classifyField(key: string, ctx: FilterContext): FieldInfo | string {
  const fields = ctx.fields ?? FIXED_FIELDS;
  const fixed = fields.get(key);
  if (fixed) return fixed;
  if (key === 'status' && !ctx.fields) return 'status cannot be queried; use the status parameter';
  if (key === 'metadata') return 'query a Metafield by its path, e.g. metadata.<key>';
  if (!key.startsWith('metadata.')) {
    const keys = ctx.fields ? [...ctx.fields.keys(), 'metadata.<key>'] : QUERYABLE_KEYS;
    return `unknown key "${key}"; queryable keys are ${keys.join(', ')}`;
  }
  const segments = key.split('.').slice(1);
  for (const seg of segments) {
    if (seg === '') return `metadata path "${key}" has an empty segment`;
    if (seg.startsWith('$')) return `metadata path segment "${seg}" cannot start with "$"`;
    if (!SEGMENT.test(seg)) return `metadata path segment "${seg}" may contain only letters, digits, _ and -`;
    if (RESERVED_SEGMENTS.has(seg)) return `metadata path segment "${seg}" is reserved`;
  }
  if (segments.length > MAX_METADATA_PATH_SEGMENTS) {
    return `metadata path has more than ${MAX_METADATA_PATH_SEGMENTS} segments after "metadata"`;
  }
  const known = ctx.metadataPaths?.get(key);
  if (known) return known;
  for (let i = 1; i < segments.length; i++) {
    const prefix = `metadata.${segments.slice(0, i).join('.')}`;
    const closed = ctx.metadataPaths?.get(prefix)?.closed;
    if (closed !== undefined) return `${prefix} ${closed}`;
  }
  return { storagePath: key, valueType: 'text' };
}
