import type { Response } from 'express';
import { BadRequestError } from '../../../errors/http-errors.js';
import { readParams } from '../../../http/request.js';
import { DELETE_PARAMS } from '../../../query/read-params.js';
import { metadataOfMetafields } from '../shared/metafield-values.js';
import { isPlainObject } from '../../../util/values.js';
import type { Metafield } from '../../../types/metafield.js';
import { typedBodyValue } from './string-values.js';

/** Fields only v1 bodies carry: consumed here, never passed to the v3 validator. */
const V1_ONLY = ['type_slug', 'metafields', 'options', 'write_key', 'read_key', 'trigger_webhook'];
/** How an edit names its Object (find-object.ts); a create names none, so there they are unknown fields. */
const NAMING = ['id', '_id'];
/** What Edit Object Metafields takes: the Object's name, its Metafields, the key and the webhook switch. */
const METAFIELDS_EDIT = new Set([
  'slug',
  'id',
  '_id',
  'type_slug',
  'locale',
  'metafields',
  'write_key',
  'read_key',
  'trigger_webhook',
]);
const DISPLAY_OPTIONS = new Set(['slug_field', 'content_editor']);
const DISPLAY_VALUES: readonly unknown[] = [true, false, 0, 1];

export interface V1Write {
  /** The v3 body (ObjectCreate or ObjectPatch), judged by the v3 schema. */
  body: Record<string, unknown>;
  /** v1 fires the webhook only when asked. */
  notify: boolean;
  /** The `metafields` entries in v3 form, when sent: keys the type lacks define the Object's own Metafields. */
  definitions?: unknown[];
}

/**
 * How a v1 write names its Object: a create names none; an edit by slug uses `slug` to find
 * the Object (so it is no rename); an edit by id may send `slug` to rename it.
 */
export type V1WriteMode = 'create' | 'edit-by-slug' | 'edit-by-id';

export function bodyOf(raw: unknown): Record<string, unknown> {
  if (!isPlainObject(raw)) throw new BadRequestError('The body must be a JSON object', 'invalid_body');
  return raw;
}

/** A boolean body field such as `trigger_webhook`: absent is false, anything but a boolean a 400. */
export function bodyFlag(raw: Record<string, unknown>, name: string): boolean {
  const value = raw[name];
  if (value !== undefined && typeof value !== 'boolean')
    throw new BadRequestError(`${name} must be true or false`, 'invalid_body');
  return value === true;
}

/** v1 deletes (routes taking DELETE_PARAMS) fire webhooks on `trigger_webhook` in the query, as v3's do, or in the body. */
export function triggered(res: Response, raw: Record<string, unknown>): boolean {
  return readParams(res, DELETE_PARAMS).trigger_webhook || bodyFlag(raw, 'trigger_webhook');
}

/**
 * v1 writes an `objects` value as comma-separated ids, where v3 takes an array, and number and
 * switch values as the strings they spell (string-values.ts); nested entries (a parent's
 * children, a repeater item's children) too. The kind is the Object type's Metafield's where
 * it is known (`defs`), else the entry's own `type`. Everything else is the shared legacy form.
 */
function v3Values(list: unknown, defs: readonly Metafield[] | undefined): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((entry: unknown) => {
    if (!isPlainObject(entry)) return entry;
    const def = defs?.find((d) => d.key === entry.key);
    const kind = def?.type ?? entry.type;
    const out: Record<string, unknown> = { ...entry };
    if (kind === 'objects' && typeof entry.value === 'string')
      out.value = entry.value === '' ? [] : entry.value.split(',').map((s) => s.trim());
    else if (Object.hasOwn(entry, 'value')) out.value = typedBodyValue(kind, entry.value);
    if (Array.isArray(entry.children)) out.children = nestedValues(kind, entry.children, def);
    return out;
  });
}

/** A parent's children are Metafields of its level; a repeater's are items, each holding a level. */
function nestedValues(kind: unknown, children: unknown[], def: Metafield | undefined): unknown {
  if (kind !== 'repeater') return v3Values(children, def?.type === 'parent' ? (def.children ?? []) : undefined);
  const fields = def?.type === 'repeater' ? def.repeater_fields : undefined;
  return children.map((item: unknown) =>
    isPlainObject(item) ? { ...item, children: v3Values(item.children, fields) } : item,
  );
}

/**
 * The v1 `metafields` array as v3 `metadata`, each entry's value under its key, and the entries
 * in v3 form (`defs`: the Metafields of the Object or its type, when known).
 */
export function metadataOfV1Metafields(
  metafields: unknown,
  defs?: readonly Metafield[],
): { metadata: Record<string, unknown>; definitions: unknown[] } {
  const entries = v3Values(metafields, defs);
  const metadata = metadataOfMetafields(entries, 'body.metafields');
  // metadataOfMetafields refuses anything but an array.
  return { metadata, definitions: entries as unknown[] };
}

/**
 * v1 `options` (slug_field, content_editor) are editor display flags. This service keeps them
 * on the Object type (edit-object-type sets them), so an Object's are checked and not stored.
 */
function checkDisplayOptions(options: unknown): void {
  if (options === undefined) return;
  const bad = !isPlainObject(options)
    ? ['options must be an object']
    : Object.entries(options)
        .filter(([k, v]) => !DISPLAY_OPTIONS.has(k) || !DISPLAY_VALUES.includes(v))
        .map(([k]) => `options.${k} is not slug_field or content_editor set to true, false, 0 or 1`);
  if (bad.length > 0) throw new BadRequestError(bad.join('; '), 'invalid_body');
}

/**
 * A v1 Add or Edit Object body as the v3 body. Everything left after the v1 fields goes to the
 * v3 schema, which refuses what it does not know.
 */
export function v3ObjectBody(raw: Record<string, unknown>, mode: V1WriteMode, defs?: readonly Metafield[]): V1Write {
  checkDisplayOptions(raw.options);
  const notify = bodyFlag(raw, 'trigger_webhook');
  const body: Record<string, unknown> = {};
  const consumed = mode === 'create' ? V1_ONLY : [...V1_ONLY, ...NAMING];
  for (const [k, v] of Object.entries(raw)) if (!consumed.includes(k)) body[k] = v;
  if (mode === 'create') {
    if (raw.type_slug === undefined && raw.type === undefined)
      throw new BadRequestError('type_slug is required: the slug of the Object type to add to', 'invalid_body');
    if (raw.type_slug !== undefined) body.type = raw.type_slug;
  }
  if (mode === 'edit-by-slug') delete body.slug;
  if (raw.metafields === undefined) return { body, notify };
  const fromArray = metadataOfV1Metafields(raw.metafields, defs);
  body.metadata = { ...(isPlainObject(raw.metadata) ? raw.metadata : {}), ...fromArray.metadata };
  return { body, notify, definitions: fromArray.definitions };
}

/** An Edit Object Metafields body as the v3 patch: only `metadata`, from the Metafields sent (others untouched). */
export function v3MetafieldsEdit(raw: Record<string, unknown>, defs?: readonly Metafield[]): V1Write {
  const unknown = Object.keys(raw).filter((k) => !METAFIELDS_EDIT.has(k));
  if (unknown.length > 0)
    throw new BadRequestError(
      `Edit Object Metafields takes slug (or id), metafields and write_key; not ${unknown.join(', ')}: use edit-object`,
      'invalid_body',
    );
  if (raw.metafields === undefined) throw new BadRequestError('metafields is required', 'invalid_body');
  const { metadata, definitions } = metadataOfV1Metafields(raw.metafields, defs);
  return { body: { metadata }, notify: bodyFlag(raw, 'trigger_webhook'), definitions };
}
