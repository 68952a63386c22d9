import { BadRequestError } from '../../errors/http-errors.js';
import { isPlainObject } from '../../util/plain-object.js';

/** Fields only v1 bodies carry: consumed here, never passed to the v3 validator. */
const V1_ONLY = ['type_slug', 'metafields', 'options', 'write_key', 'trigger_webhook', 'id', '_id', 'read_key'];

export interface V1Write {
  /** The v3 body (ObjectCreate or ObjectPatch), judged by the v3 schema. */
  body: Record<string, unknown>;
  /** v1 fires the webhook only when asked. */
  notify: boolean;
}

export function bodyOf(raw: unknown): Record<string, unknown> {
  if (!isPlainObject(raw)) throw new BadRequestError('The body must be a JSON object', 'invalid_body');
  return raw;
}

/** v1 writes `objects` values as comma-separated ids; v3 takes an array. */
function v3Value(type: unknown, value: unknown): unknown {
  if (type === 'objects' && typeof value === 'string') return value === '' ? [] : value.split(',').map((s) => s.trim());
  return value;
}

/** The `metafields` array as v3 `metadata`: each entry's value under its key. */
export function metadataOfMetafields(metafields: unknown): Record<string, unknown> {
  if (!Array.isArray(metafields)) throw new BadRequestError('metafields must be an array', 'invalid_body');
  const out: Record<string, unknown> = {};
  metafields.forEach((m: unknown, i) => {
    if (!isPlainObject(m) || typeof m.key !== 'string' || m.key === '')
      throw new BadRequestError(`metafields[${i}] must be an object with a key`, 'invalid_body');
    out[m.key] = v3Value(m.type, m.value ?? null);
  });
  return out;
}

/**
 * A v1 Add or Edit Object body as the v3 body. `slug` is dropped on edit, where it names the
 * Object; everything left after the v1 fields goes to the v3 schema, which refuses what it does not know.
 */
export function v3ObjectBody(raw: Record<string, unknown>, mode: 'create' | 'edit'): V1Write {
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(raw)) if (!V1_ONLY.includes(k)) body[k] = v;
  if (mode === 'create' && raw.type_slug !== undefined) body.type = raw.type_slug;
  if (mode === 'edit') delete body.slug;
  if (raw.metafields !== undefined) {
    const fromArray = metadataOfMetafields(raw.metafields);
    body.metadata = { ...(isPlainObject(raw.metadata) ? raw.metadata : {}), ...fromArray };
  }
  if (raw.trigger_webhook !== undefined && typeof raw.trigger_webhook !== 'boolean')
    throw new BadRequestError('trigger_webhook must be true or false', 'invalid_body');
  return { body, notify: raw.trigger_webhook === true };
}
