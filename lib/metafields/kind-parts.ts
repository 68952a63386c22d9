import { isObjectId } from '../util/values.js';
import { isPlainObject } from '../util/values.js';
import type { MetadataRenderContext } from './render-types.js';
import type { Metafield } from '../types/metafield.js';
import type { AnswerSchemas, MetafieldKind, Schema } from './kind.js';
import { enumOf, optionKey, optionList } from './options.js';
import { OBJECT_ID_PATTERN } from '../util/values.js';
import { toObjectId } from '../util/values.js';
import { passThrough } from '../util/values.js';

/* Pieces several Metafield kinds share (lib/metafields/kinds.ts). */

export const STRING: Schema = { type: 'string' };
export const orEmpty = (schema: Schema): Schema => ({ anyOf: [schema, { const: '' }] });
export const optionArray = (required: string[]): Schema => ({
  type: 'array',
  items: {
    type: 'object',
    required,
    properties: { key: { type: 'string' }, value: { type: 'string' } },
    additionalProperties: false,
  },
});
export const METAFIELD_LIST: Schema = { type: 'array', items: { $ref: 'Metafield' } };

/** A repeater definition may carry ready-made items, each with its own copies of the repeater_fields. */
export const REPEATING_ITEMS: Schema = {
  type: 'array',
  items: {
    type: 'object',
    title: 'a repeating item',
    description: 'One item of a repeater: its own copies of the repeater_fields.',
    required: ['type', 'children'],
    properties: {
      id: STRING,
      type: { const: 'repeating_item' },
      title: STRING,
      key: STRING,
      children: METAFIELD_LIST,
    },
    additionalProperties: false,
  },
};

/* Values as reads answer them (MetafieldKind.answer). */

/** A file as answered: the media item's addresses (lib/metafields/render-types.ts ApiFileUrls). */
export const FILE_URLS: Schema = {
  type: 'object',
  required: ['url', 'imgproc_url'],
  properties: { url: STRING, imgproc_url: STRING },
};

/** A select-dropdown as answered: the stored option key with its value. */
export function selectAnswer(mf: Metafield): Schema {
  const options = optionList(mf);
  return {
    type: 'object',
    required: ['key', 'value'],
    properties: {
      key: { type: 'string', ...enumOf(options.map(optionKey)) },
      value: { type: 'string', ...enumOf(options.map((o) => o.value)) },
    },
  };
}

/** One related Object as answered: its id, or the related type's Object where the read expanded it. */
export function relatedAnswer(mf: Metafield, nested: AnswerSchemas): Schema {
  return { anyOf: [{ type: 'string', pattern: OBJECT_ID_PATTERN }, nested.related(mf.object_type)] };
}

export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const RELATIONSHIP = "is an Object relationship; query it by the related Object's id";
export const SELECT =
  'is a select-dropdown; query its option key as it is or through .key, or its option value through .value';

/** Code points, as Ajv's minLength/maxLength count them (not graphemes, not UTF-16 units). */
const lengthOf = (text: string): number => Array.from(text).length;
const characters = (n: number): string => `${n} character${n === 1 ? '' : 's'}`;
/** Array kinds need at least one item when required: [] carries no selection. */
export const nonEmpty = (mf: { required?: boolean }): Schema => (mf.required === true ? { minItems: 1 } : {});

type TextType = 'text' | 'textarea' | 'html-textarea' | 'markdown';

export const TEXT: MetafieldKind<TextType> = {
  definition: { value: STRING, takes: { length: {}, regex: {} } },
  value: (mf) => {
    const min = Math.max(mf.required === true ? 1 : 0, mf.minlength ?? 0);
    return {
      type: 'string',
      ...(min > 0 ? { minLength: min } : {}),
      ...(typeof mf.maxlength === 'number' ? { maxLength: mf.maxlength } : {}),
    };
  },
  describe: (mf, value) => {
    if (typeof value !== 'string') return 'must be a string';
    const length = lengthOf(value);
    if (typeof mf.maxlength === 'number' && length > mf.maxlength) {
      return `must NOT have more than ${characters(mf.maxlength)}`;
    }
    if (typeof mf.minlength === 'number' && length < mf.minlength) {
      return `must NOT have fewer than ${characters(mf.minlength)}`;
    }
    return 'must be a string';
  },
  empty: () => '',
  sortable: true,
  query: { as: 'text' },
};

/** Ids as clients send them (hex strings) or as stored (ObjectIds): either way one id per item. */
export function storeIds(value: unknown): unknown {
  // A comma-separated string is the legacy write shape; Metafield defaults may still use it.
  const items =
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value;
  if (!Array.isArray(items)) return value;
  const seen = new Set<string>();
  const ids: unknown[] = [];
  for (const item of items) {
    const id = toObjectId(item);
    const hex = isObjectId(id) ? id.toHexString() : null;
    if (hex !== null && seen.has(hex)) continue;
    if (hex !== null) seen.add(hex);
    ids.push(id);
  }
  return ids;
}

/** A relationship as answered: an id, or the related Object where populate expanded it. */
export function renderRelated(value: unknown, ctx: MetadataRenderContext): unknown {
  if (isObjectId(value)) return value.toHexString();
  return isPlainObject(value) ? ctx.renderRelated(value) : passThrough(value);
}

/** A related Object as answered (its id, or the Object itself where a read expanded it) → its id. */
export function relatedIdOf(answered: unknown): unknown {
  return isPlainObject(answered) && typeof answered.id === 'string' ? answered.id : answered;
}

/**
 * A file value as answered ({url, imgproc_url}) → the media name: the last segment of its URL,
 * which is the name on this service (/files/<bucket>/<name>) as on the hosted one (cdn/<name>).
 */
export function mediaNameOfAnswer(answered: unknown): unknown {
  if (!isPlainObject(answered) || typeof answered.url !== 'string') return answered;
  return mediaNameOfUrl(answered.url);
}

export function mediaNameOfUrl(url: string): string {
  const path = url.split(/[?#]/)[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}
