import {
  GraphQLBoolean,
  GraphQLID,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  type GraphQLInputType,
  type GraphQLResolveInfo,
} from 'graphql';
import type { ObjectTypeDoc } from '../db/collections.js';
import { isPlainObject } from '../util/values.js';
import { AnyObjectType, ObjectStatusEnum, objectFields } from './common-types.js';
import { inputLevel, inputToKeys, levelType, type MetadataTypeContext } from './metadata-types.js';
import { fieldName, pascalName, RESERVED_TYPE_NAMES, uniqueNames } from './names.js';
import { JSONScalar } from './scalars.js';
import { relationshipDepth } from './depth.js';
import type { GraphQLContext, ListArgs, ReadArgs } from './context.js';

/**
 * The GraphQL schema of one Bucket, made from its Object types: per type a list, a lookup by id
 * and by slug, and create, update and delete. Built once per Bucket generation (schema-cache.ts);
 * everything a request brings (the credential, the database) comes in its context, so resolvers
 * here only shape arguments and answers and hand the work to the v3 services (resolve.ts).
 */

type Source = Record<string, unknown>;
type Field = GraphQLFieldConfig<Source, GraphQLContext>;

/** The suffixes of the types made per Object type: a name is only given when none of them is taken. */
const SUFFIXES = ['', 'Page', 'Metadata', 'Create', 'Patch', 'MetadataInput'];

/** Type names per slug: PascalCase, told apart by a number where two spell alike or one is reserved. */
function typeNames(slugs: readonly string[]): Map<string, string> {
  const taken = new Set(RESERVED_TYPE_NAMES);
  const out = new Map<string, string>();
  for (const slug of slugs) {
    const base = pascalName(slug);
    let name = base;
    for (let n = 2; SUFFIXES.some((s) => taken.has(name + s)); n++) name = `${base}_${String(n)}`;
    for (const s of SUFFIXES) taken.add(name + s);
    out.set(slug, name);
  }
  return out;
}

/** The keys of a type's Metafields: what an Object holds beyond them are its own (legacy) Metafields. */
function extraMetadata(keys: ReadonlySet<string>) {
  return (src: Source): Record<string, unknown> | null => {
    const metadata = src.metadata;
    if (!isPlainObject(metadata)) return null;
    const extra = Object.entries(metadata).filter(([k]) => !keys.has(k));
    return extra.length > 0 ? Object.fromEntries(extra) : null;
  };
}

interface TypeParts {
  slug: string;
  object: GraphQLObjectType;
  page: GraphQLObjectType;
  create: GraphQLInputObjectType;
  patch: GraphQLInputObjectType;
}

const readArgs = {
  status: { type: ObjectStatusEnum, description: 'published (default), draft or any, as v3 `status`.' },
  locale: { type: GraphQLString, description: 'Only the Object of this locale.' },
};

const listArgs = {
  query: {
    type: JSONScalar,
    description: 'A v3 query filter (the query language of GET /objects); `type` is this field’s.',
  },
  sort: { type: GraphQLString, description: 'As v3 `sort`, e.g. "-created_at" or "metadata.price".' },
  limit: { type: GraphQLInt },
  skip: { type: GraphQLInt },
  after: { type: GraphQLID, description: 'The id of the previous page’s last Object (keyset paging, as v3 `after`).' },
  ...readArgs,
};

/** The fields of a create or patch input: the Object's own fields, then typed metadata. */
function writeInput(name: string, metadata: GraphQLInputType): GraphQLInputObjectType {
  return new GraphQLInputObjectType({
    name,
    fields: {
      title: { type: GraphQLString },
      slug: { type: GraphQLString },
      content: { type: GraphQLString },
      status: { type: GraphQLString, description: 'published or draft' },
      locale: { type: GraphQLString },
      thumbnail: { type: GraphQLString, description: 'A media name.' },
      publish_at: { type: JSONScalar, description: 'As v3: a time to publish at, or null.' },
      unpublish_at: { type: JSONScalar, description: 'As v3: a time to withdraw at, or null.' },
      metadata: { type: metadata },
    },
  });
}

/** The body a v3 write takes from a GraphQL input value: Metafield keys restored. */
function bodyOf(input: GraphQLInputObjectType, data: unknown): Record<string, unknown> {
  const body = inputToKeys(input, data);
  return isPlainObject(body) ? body : {};
}

export function buildBucketSchema(types: readonly ObjectTypeDoc[]): GraphQLSchema {
  const slugs = types.map((t) => t.slug);
  const names = typeNames(slugs);
  const parts = new Map<string, TypeParts>();
  const ctx: MetadataTypeContext = { related: (slug) => (slug && parts.get(slug)?.object) || AnyObjectType };

  for (const type of types) {
    const name = names.get(type.slug) ?? pascalName(type.slug);
    const keys = new Set(type.metafields.map((m) => m.key));
    const metadata = levelType(type.metafields, `${name}Metadata`, ctx);
    const object = new GraphQLObjectType<Source, GraphQLContext>({
      name,
      description: `An Object of type ${type.slug} (${JSON.stringify(type.title)}).`,
      fields: () => ({
        ...objectFields(),
        metadata: { type: metadata ?? JSONScalar, resolve: (s) => (isPlainObject(s.metadata) ? s.metadata : {}) },
        metadata_extra: {
          type: JSONScalar,
          description: 'Metafields of this Object’s own (added through the legacy API), by key; null when none.',
          resolve: extraMetadata(keys),
        },
      }),
    });
    const page = new GraphQLObjectType({
      name: `${name}Page`,
      fields: {
        objects: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(object))) },
        total: { type: new GraphQLNonNull(GraphQLInt) },
      },
    });
    const metadataInput = inputLevel(type.metafields, `${name}MetadataInput`) ?? JSONScalar;
    parts.set(type.slug, {
      slug: type.slug,
      object,
      page,
      create: writeInput(`${name}Create`, metadataInput),
      patch: writeInput(`${name}Patch`, metadataInput),
    });
  }

  const fields = uniqueNames(slugs, fieldName, new Set(['object_types']));
  const query: GraphQLFieldConfigMap<Source, GraphQLContext> = {
    object_types: {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(GraphQLString))),
      description: 'The slugs of the Bucket’s Object types (each has the fields below).',
      resolve: () => slugs,
    },
  };
  const mutation: GraphQLFieldConfigMap<Source, GraphQLContext> = {};
  const add = (map: GraphQLFieldConfigMap<Source, GraphQLContext>, name: string, field: Field) => {
    // A slug whose derived names meet another's ("posts" and "posts-by-id") keeps the first.
    if (!(name in map)) map[name] = field;
  };
  for (const p of parts.values()) {
    const f = fields.get(p.slug) ?? fieldName(p.slug);
    add(query, f, {
      type: new GraphQLNonNull(p.page),
      args: listArgs,
      resolve: (_s, args: ListArgs, c, info: GraphQLResolveInfo) =>
        c.objects.list(p.slug, args, relationshipDepth(info)),
    });
    add(query, `${f}_by_id`, {
      type: p.object,
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, ...readArgs },
      resolve: (_s, args: ReadArgs & { id: string }, c, info: GraphQLResolveInfo) =>
        c.objects.byId(p.slug, args.id, args, relationshipDepth(info)),
    });
    add(query, `${f}_by_slug`, {
      type: p.object,
      args: { slug: { type: new GraphQLNonNull(GraphQLString) }, ...readArgs },
      resolve: (_s, args: ReadArgs & { slug: string }, c, info: GraphQLResolveInfo) =>
        c.objects.bySlug(p.slug, args.slug, args, relationshipDepth(info)),
    });
    add(mutation, `create_${f}`, {
      type: new GraphQLNonNull(p.object),
      args: { data: { type: new GraphQLNonNull(p.create) } },
      resolve: (_s, args: { data: unknown }, c) => c.objects.create(p.slug, bodyOf(p.create, args.data)),
    });
    add(mutation, `update_${f}`, {
      type: new GraphQLNonNull(p.object),
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, data: { type: new GraphQLNonNull(p.patch) } },
      resolve: (_s, args: { id: string; data: unknown }, c) =>
        c.objects.update(p.slug, args.id, bodyOf(p.patch, args.data)),
    });
    add(mutation, `delete_${f}`, {
      type: new GraphQLNonNull(GraphQLBoolean),
      args: {
        id: { type: new GraphQLNonNull(GraphQLID) },
        trigger_webhook: { type: GraphQLBoolean, description: 'As v3: send object.deleted to webhooks.' },
      },
      resolve: (_s, args: { id: string; trigger_webhook?: boolean | null }, c) =>
        c.objects.remove(p.slug, args.id, args.trigger_webhook === true),
    });
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    ...(Object.keys(mutation).length > 0 && {
      mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation }),
    }),
  });
}
