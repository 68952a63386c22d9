import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLInputObjectType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLInputFieldConfig,
  type GraphQLInputType,
} from 'graphql';
import type { Metafield } from '../types/metafield.js';
import { isPlainObject } from '../util/values.js';
import { mediaNameOfAnswer } from '../metafields/kind-parts.js';
import { JSONScalar } from './scalars.js';
import { fieldName, uniqueNames } from './names.js';
import { MediaType, SelectOptionType } from './common-types.js';

/**
 * The GraphQL types of one Object type's metadata, Metafield by Metafield: what reads answer
 * (as the v3 API renders each kind) and what writes take. Write inputs are loose where v3 is
 * strict (every field optional, options as plain strings): the v3 validation then checks them
 * with its own messages, as for REST.
 */

/** Marks a field whose value is a related Object (or a list of them): each one is a level of depth. */
export const RELATIONSHIP = 'relationship';

type Resolved = GraphQLFieldConfig<Record<string, unknown>, unknown>;

/** Types made for one Object type, the related types looked up by Object type slug. */
export interface MetadataTypeContext {
  /** The GraphQL type of the Object type `slug`, or the generic one. */
  related: (slug: string | undefined) => GraphQLObjectType;
}

const asString = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const objects = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isPlainObject) : []);

/** A file value as answered ({url, imgproc_url}) → Media, with its name and imgix_url (the hosted service's name). */
function media(v: unknown) {
  if (!isPlainObject(v)) return null;
  const name = mediaNameOfAnswer(v);
  return { ...v, name: typeof name === 'string' ? name : null, imgix_url: v.imgproc_url ?? null };
}

function outputOf(mf: Metafield, name: string, ctx: MetadataTypeContext): Resolved {
  const key = mf.key;
  const value = (src: Record<string, unknown>) => src[key];
  switch (mf.type) {
    case 'number':
      return { type: GraphQLFloat, resolve: (s) => (typeof value(s) === 'number' ? value(s) : null) };
    case 'switch':
      return { type: GraphQLBoolean, resolve: (s) => (typeof value(s) === 'boolean' ? value(s) : null) };
    case 'json':
      return { type: JSONScalar, resolve: (s) => value(s) ?? null };
    case 'select-dropdown':
      return { type: SelectOptionType, resolve: (s) => (isPlainObject(value(s)) ? value(s) : null) };
    case 'check-boxes':
      return {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))),
        resolve: (s) => strings(value(s)),
      };
    case 'file':
      return { type: MediaType, resolve: (s) => media(value(s)) };
    case 'object':
      // Only an expanded Object resolves: an id left (related Object missing, or not visible) is null.
      return {
        type: ctx.related(mf.object_type),
        extensions: { [RELATIONSHIP]: true },
        resolve: (s) => (isPlainObject(value(s)) ? value(s) : null),
      };
    case 'objects':
      return {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(ctx.related(mf.object_type)))),
        extensions: { [RELATIONSHIP]: true },
        resolve: (s) => objects(value(s)),
      };
    case 'parent': {
      const level = levelType(mf.children?.filter(isMetafield) ?? [], name, ctx);
      return { type: level ?? JSONScalar, resolve: (s) => (isPlainObject(value(s)) ? value(s) : {}) };
    }
    case 'repeater': {
      const item = levelType(mf.repeater_fields ?? [], `${name}_Item`, ctx);
      return {
        type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item ?? JSONScalar))),
        resolve: (s) => objects(value(s)),
      };
    }
    default:
      // text, textarea, html-textarea, markdown, date (as stored), radio-buttons
      return { type: GraphQLString, resolve: (s) => asString(value(s)) };
  }
}

/** A parent's `children` holds Metafields; a repeater's holds items (not read here). */
function isMetafield(child: unknown): child is Metafield {
  return isPlainObject(child) && typeof child.key === 'string' && child.type !== 'repeating_item';
}

/**
 * The fields of one level of Metafields: each key once (its first definition), with its GraphQL
 * name (keys that spell alike told apart); empty for a level without any.
 */
function levelFields(metafields: readonly Metafield[]): [string, Metafield][] {
  const names = uniqueNames(
    metafields.map((m) => m.key),
    fieldName,
  );
  const first = new Map<string, Metafield>();
  for (const mf of metafields) if (!first.has(mf.key)) first.set(mf.key, mf);
  return [...first.values()].map((mf) => [names.get(mf.key) ?? fieldName(mf.key), mf]);
}

/** The object type of one level of Metafields named `name`; null for a level without any (GraphQL needs a field). */
export function levelType(
  metafields: readonly Metafield[],
  name: string,
  ctx: MetadataTypeContext,
): GraphQLObjectType | null {
  const fields = levelFields(metafields);
  if (fields.length === 0) return null;
  return new GraphQLObjectType({
    name,
    fields: () =>
      Object.fromEntries(
        fields.map(([field, mf]) => [field, { ...outputOf(mf, `${name}_${field}`, ctx), description: mf.title }]),
      ),
  });
}

function inputOf(mf: Metafield, name: string): GraphQLInputType {
  switch (mf.type) {
    case 'number':
      return GraphQLFloat;
    case 'switch':
      return GraphQLBoolean;
    case 'json':
      return JSONScalar;
    case 'check-boxes':
    case 'objects':
      return new GraphQLList(new GraphQLNonNull(GraphQLString));
    case 'parent':
      return inputLevel(mf.children?.filter(isMetafield) ?? [], name) ?? JSONScalar;
    case 'repeater': {
      const item = inputLevel(mf.repeater_fields ?? [], `${name}_Item`);
      return new GraphQLList(new GraphQLNonNull(item ?? JSONScalar));
    }
    default:
      // text kinds, date, radio-buttons, select-dropdown (an option key or value), file (a media
      // name), object (an Object id)
      return GraphQLString;
  }
}

/** The input object type of one level of Metafields, every field optional; null without any. */
export function inputLevel(metafields: readonly Metafield[], name: string): GraphQLInputObjectType | null {
  const fields = levelFields(metafields);
  if (fields.length === 0) return null;
  return new GraphQLInputObjectType({
    name,
    fields: () =>
      Object.fromEntries(
        fields.map(([field, mf]): [string, GraphQLInputFieldConfig] => [
          field,
          { type: inputOf(mf, `${name}_${field}`), description: mf.title, extensions: { key: mf.key } },
        ]),
      ),
  });
}

/**
 * An input value as the v3 write takes it: GraphQL field names back to Metafield keys (they
 * differ where a key is not a GraphQL name), level by level.
 */
export function inputToKeys(type: GraphQLInputType, value: unknown): unknown {
  const named = type instanceof GraphQLNonNull ? type.ofType : type;
  if (named instanceof GraphQLList)
    return Array.isArray(value) ? value.map((v) => inputToKeys(named.ofType, v)) : value;
  if (!(named instanceof GraphQLInputObjectType) || !isPlainObject(value)) return value;
  const fields = named.getFields();
  return Object.fromEntries(
    Object.entries(value).map(([field, v]) => {
      const def = fields[field];
      const key = def?.extensions.key;
      return [typeof key === 'string' ? key : field, def ? inputToKeys(def.type, v) : v];
    }),
  );
}
