import {
  GraphQLEnumType,
  GraphQLID,
  GraphQLInt,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { JSONScalar } from './scalars.js';

/** The types every Bucket's schema has, whatever its Object types. */

export const ObjectStatusEnum = new GraphQLEnumType({
  name: 'ObjectStatus',
  description:
    'Which versions a read sees, as the v3 `status` parameter: the live ones (default), drafts, or the latest of each.',
  values: { published: { value: 'published' }, draft: { value: 'draft' }, any: { value: 'any' } },
});

export const MediaType = new GraphQLObjectType({
  name: 'Media',
  description: 'A file Metafield’s media item.',
  fields: {
    name: { type: GraphQLString, description: 'The media item’s name (what a write sends).' },
    url: { type: GraphQLString },
    imgix_url: { type: GraphQLString, description: 'The image URL that takes processing parameters (imgproc_url).' },
    imgproc_url: { type: GraphQLString },
  },
});

export const SelectOptionType = new GraphQLObjectType({
  name: 'SelectOption',
  description: 'A select-dropdown value as v3 answers it: the option’s key and value.',
  fields: { key: { type: new GraphQLNonNull(GraphQLString) }, value: { type: GraphQLString } },
});

/** The fields of every Object, as the v3 API answers them. */
export function objectFields(): GraphQLFieldConfigMap<Record<string, unknown>, unknown> {
  return {
    id: { type: new GraphQLNonNull(GraphQLID) },
    slug: { type: GraphQLString },
    title: { type: GraphQLString },
    type: { type: GraphQLString },
    status: { type: GraphQLString, description: 'published or draft' },
    content: { type: GraphQLString },
    locale: { type: GraphQLString },
    thumbnail: { type: GraphQLString },
    order: { type: GraphQLInt },
    created_at: { type: GraphQLString },
    modified_at: { type: GraphQLString },
    published_at: { type: GraphQLString },
    created_by: { type: GraphQLString },
    modified_by: { type: GraphQLString },
    version: {
      type: GraphQLString,
      description: 'What If-Match names (the REST ETag) to write over exactly this version.',
    },
  };
}

/** A related Object of a type the Bucket does not have (any longer): its metadata as JSON. */
export const AnyObjectType = new GraphQLObjectType({
  name: 'AnyObject',
  fields: () => ({ ...objectFields(), metadata: { type: JSONScalar } }),
});
