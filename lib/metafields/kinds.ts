import { jsonBoundsProblems } from '../validation/json-bounds.js';
import { MAX_JSON_VALUE_DEPTH, MAX_OBJECT_KEYS } from '../validation/limits.js';
import { OBJECT_ID_PATTERN } from '../util/values.js';
import type { MetafieldOf, MetafieldType } from '../types/metafield.js';
import type { MetafieldKind } from './kind.js';
import {
  DATE_PATTERN,
  FILE_URLS,
  METAFIELD_LIST,
  RELATIONSHIP,
  REPEATING_ITEMS,
  SELECT,
  STRING,
  TEXT,
  nonEmpty,
  mediaNameOfAnswer,
  optionArray,
  orEmpty,
  relatedAnswer,
  relatedIdOf,
  renderRelated,
  selectAnswer,
  storeIds,
} from './kind-parts.js';
import {
  enumOf,
  findSelectOption,
  keysAnsweringValue,
  optionKey,
  optionValues,
  quoteList,
  selectSpellings,
} from './options.js';
import { isPlainObject } from '../util/values.js';
import { toObjectId } from '../util/values.js';
import { passThrough } from '../util/values.js';

/*
 * The one table of Metafield kinds. Adding a kind is one entry here (plus its name in
 * definition.ts, which the compiler holds to this table) and its tests; schemas/Metafield.json
 * is generated from the `definition` rules (`npm run gen:types`).
 */

export const METAFIELD_KINDS: { readonly [T in MetafieldType]: MetafieldKind<T> } = {
  text: TEXT,
  textarea: TEXT,
  'html-textarea': TEXT,
  'select-dropdown': {
    definition: {
      value: STRING,
      takes: { options: { required: true, schema: optionArray(['key', 'value']) }, regex: {} },
    },
    value: (mf) => ({ type: 'string', ...enumOf(selectSpellings(mf)) }),
    answer: selectAnswer,
    describe: (mf) => `must be one of the option keys or values: ${quoteList(selectSpellings(mf))}`,
    empty: () => null,
    store: (value, mf) => {
      const option = typeof value === 'string' ? findSelectOption(mf, value) : undefined;
      return option ? optionKey(option) : value;
    },
    render: (value, mf) => {
      if (typeof value !== 'string') return passThrough(value);
      // Stored keys are option keys, but a value matching nothing by key may be a legacy value.
      const option = findSelectOption(mf, value);
      return option ? { key: optionKey(option), value: option.value } : { key: value, value };
    },
    unrender: (answered) => (isPlainObject(answered) && typeof answered.key === 'string' ? answered.key : answered),
    sortable: true,
    // Stored as the option key, answered as {key, value}: both halves can be queried.
    query: {
      as: 'text',
      closed: SELECT,
      fields: (mf) => ({
        key: { as: 'text' },
        value: {
          as: 'text',
          operators: ['$eq', '$ne', '$in', '$nin', '$not'],
          expand: (value) => keysAnsweringValue(mf, value),
        },
      }),
    },
    optionField: 'key',
  },
  object: {
    definition: {
      value: { type: 'string', title: 'an Object id or ""' },
      takes: { object_type: { required: true, schema: true }, regex: {} },
    },
    value: () => ({ type: 'string', pattern: OBJECT_ID_PATTERN }),
    answer: relatedAnswer,
    describe: () => 'must be an Object id (24 hexadecimal characters)',
    empty: () => null,
    store: toObjectId,
    render: (value, _mf, ctx) => renderRelated(value, ctx),
    unrender: relatedIdOf,
    sortable: false,
    query: { as: 'ref', closed: RELATIONSHIP },
    relatedIds: (value) => [value],
  },
  objects: {
    definition: {
      value: orEmpty({ type: 'array', items: STRING }),
      takes: { object_type: { required: true, schema: true } },
    },
    value: (mf) => ({
      type: 'array',
      items: { type: 'string', pattern: OBJECT_ID_PATTERN },
      uniqueItems: true,
      ...nonEmpty(mf),
    }),
    answer: (mf, nested) => ({ type: 'array', items: relatedAnswer(mf, nested) }),
    describe: () => 'must be an array of distinct Object ids (24 hexadecimal characters each)',
    empty: () => [],
    store: storeIds,
    render: (value, _mf, ctx) =>
      Array.isArray(value) ? value.map((item) => renderRelated(item, ctx)) : passThrough(value),
    unrender: (answered) => (Array.isArray(answered) ? answered.map(relatedIdOf) : answered),
    sortable: false,
    query: { as: 'ref', closed: RELATIONSHIP },
    relatedIds: (value): unknown[] => (Array.isArray(value) ? (value as unknown[]) : []),
  },
  file: {
    definition: { value: STRING, takes: { media_validation_type: {}, regex: {} } },
    value: () => ({ type: 'string', minLength: 1 }),
    answer: () => FILE_URLS,
    describe: () => 'must be the name of a media item (a non-empty string)',
    empty: () => null,
    // A name with no media item (deleted) answers null: a URL that does not resolve would be worse than none.
    render: (value, _mf, ctx) => (typeof value === 'string' ? ctx.fileUrls(value) : passThrough(value)),
    unrender: mediaNameOfAnswer,
    sortable: true,
    query: { as: 'text' },
    mediaName: (value) => (typeof value === 'string' && value !== '' ? value : null),
  },
  date: {
    definition: { value: orEmpty({ type: 'string', format: 'date' }), takes: { regex: {} } },
    value: () => ({ type: 'string', pattern: DATE_PATTERN, format: 'date' }),
    describe: () => 'must be a calendar date in the form YYYY-MM-DD',
    empty: () => null,
    sortable: true,
    query: { as: 'text' },
  },
  'radio-buttons': {
    definition: { value: STRING, takes: { options: { required: true, schema: optionArray(['value']) }, regex: {} } },
    value: (mf) => ({ type: 'string', ...enumOf(optionValues(mf)) }),
    describe: (mf) => `must be one of the option values: ${quoteList(optionValues(mf))}`,
    empty: () => '',
    sortable: true,
    query: { as: 'text' },
    optionField: 'value',
  },
  'check-boxes': {
    definition: {
      value: orEmpty({ type: 'array', items: STRING }),
      takes: { options: { required: true, schema: optionArray(['value']) } },
    },
    value: (mf) => ({ type: 'array', items: { type: 'string', ...enumOf(optionValues(mf)) }, ...nonEmpty(mf) }),
    describe: (mf) => `must be an array of option values, each one of: ${quoteList(optionValues(mf))}`,
    empty: () => [],
    store: (value) => (Array.isArray(value) ? value.slice() : value),
    sortable: false,
    query: { as: 'text' },
    optionField: 'value',
  },
  repeater: {
    definition: {
      value: false,
      takes: {
        repeater_fields: { required: true, schema: true },
        children: { schema: REPEATING_ITEMS },
      },
    },
    value: (mf, nested) => ({ type: 'array', items: nested.item(mf.repeater_fields ?? []), ...nonEmpty(mf) }),
    describe: () => 'must be an array of objects keyed by its repeater_fields keys',
    empty: () => [],
    sortable: false,
    query: { as: 'text' },
    nested: {
      fields: (mf) => mf.repeater_fields ?? [],
      repeats: true,
      // Ready-made items (children) each hold their own level of Metafields.
      lists: (mf) => [
        { at: 'repeater_fields', fields: mf.repeater_fields },
        ...(mf.children ?? []).map((item, j) => ({ at: `children[${j}].children`, fields: item.children })),
      ],
    },
  },
  parent: {
    definition: { value: false, takes: { children: { schema: METAFIELD_LIST } } },
    value: (mf, nested) => nested.level(mf.children ?? []),
    describe: () => "must be an object keyed by its children's keys",
    empty: () => ({}),
    sortable: false,
    query: { as: 'text' },
    nested: {
      fields: (mf) => mf.children ?? [],
      repeats: false,
      lists: (mf) => [{ at: 'children', fields: mf.children }],
    },
  },
  markdown: TEXT,
  json: {
    definition: { value: true, takes: {} },
    value: () => ({}),
    describe: () => 'is not a valid value',
    empty: () => null,
    emptyIsValue: true,
    // Stored as sent: its nesting, key counts and key names must suit MongoDB.
    check: (value, path) =>
      jsonBoundsProblems(value, path, { maxDepth: MAX_JSON_VALUE_DEPTH, maxKeys: MAX_OBJECT_KEYS, storableKeys: true }),
    sortable: false,
    query: { as: 'text' },
  },
  switch: {
    definition: {
      value: orEmpty({ type: 'boolean' }),
      takes: { options: { required: true, schema: { enum: ['true,false', 'yes,no'] } } },
    },
    value: () => ({ type: 'boolean' }),
    describe: () => 'must be a boolean',
    empty: () => false,
    // Definitions may carry the option spelling ("yes"/"true") as the default value.
    store: (value) => {
      if (value === 'true' || value === 'yes') return true;
      if (value === 'false' || value === 'no') return false;
      return value;
    },
    sortable: true,
    query: { as: 'text' },
  },
  number: {
    definition: { value: orEmpty({ type: 'number' }), takes: { regex: {} } },
    value: () => ({ type: 'number' }),
    describe: () => 'must be a number',
    empty: () => null,
    store: (value) =>
      typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value,
    sortable: true,
    query: { as: 'number' },
  },
};

export const METAFIELD_TYPES = Object.keys(METAFIELD_KINDS) as MetafieldType[];

/** The kind of a definition. Indexing by its own type keeps the entry's functions typed for it. */
export function kindOf<T extends MetafieldType>(mf: MetafieldOf<T>): MetafieldKind<T> {
  return METAFIELD_KINDS[mf.type];
}
