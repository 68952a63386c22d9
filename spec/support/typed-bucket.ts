import type { Metafield } from '../../lib/types/metafield.js';
import type { BucketApi } from './bucket-suite.js';
import { everyMetafield } from './fixtures.js';

/**
 * A Bucket's types for the per-type schema tests: "authors" (one required text) and "posts",
 * a Metafield of every kind (spec/support/fixtures.ts) relating to authors, with the number
 * `price` and the select-dropdown `colour` required.
 */
export const POST_METAFIELDS: Metafield[] = everyMetafield.map((mf) =>
  mf.key === 'price' || mf.key === 'colour' ? { ...mf, required: true } : mf,
);

export async function createTypedTypes(api: BucketApi): Promise<void> {
  await api
    .post('/object-types', {
      title: 'Authors',
      slug: 'authors',
      metafields: [{ type: 'text', title: 'Name', key: 'name', value: '', required: true }],
    })
    .expect(200);
  await api.post('/object-types', { title: 'Posts', slug: 'posts', metafields: POST_METAFIELDS }).expect(200);
}
