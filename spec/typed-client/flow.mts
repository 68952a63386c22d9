// A client written the way users of the document write one: against openapi-typescript's types
// for GET /v3/openapi.json (generated next to this file by its test, not kept in the repository)
// through openapi-fetch. Compiled by spec/integration/openapi-tooling.spec.ts with strict options,
// so a document change that breaks typed clients fails that test; then run against the app.
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

type ApiError = components['schemas']['Error'];

export interface FlowResult {
  typeSlug: string;
  created: { id: string; rating: unknown };
  listed: { titles: string[]; total: number };
  narrowedTitle: string | undefined;
  patchedRating: unknown;
  notFound: ApiError | undefined;
}

export async function typedFlow(origin: string, slug: string, writeKey: string): Promise<FlowResult> {
  const client = createClient<paths>({ baseUrl: origin, headers: { Authorization: `Bearer ${writeKey}` } });
  const bucket = { slug };

  const type = await client.POST('/v3/buckets/{slug}/object-types', {
    params: { path: bucket },
    body: {
      title: 'Books',
      slug: 'books',
      metafields: [{ key: 'rating', type: 'number', title: 'Rating', value: '' }],
    },
  });
  if (!type.data) throw new Error(`create type: ${JSON.stringify(type.error)}`);

  const created = await client.POST('/v3/buckets/{slug}/objects', {
    params: { path: bucket },
    body: { title: 'Dune', type: type.data.object_type.slug, metadata: { rating: 4 } },
  });
  if (!created.data) throw new Error(`create Object: ${JSON.stringify(created.error)}`);
  const object = created.data.object;

  const list = await client.GET('/v3/buckets/{slug}/objects', {
    params: { path: bucket, query: { query: JSON.stringify({ type: 'books' }) } },
  });
  if (!list.data) throw new Error(`list: ${JSON.stringify(list.error)}`);

  const narrowed = await client.GET('/v3/buckets/{slug}/objects/{object_id}', {
    params: { path: { slug, object_id: object.id }, query: { props: 'title' } },
  });

  const patched = await client.PATCH('/v3/buckets/{slug}/objects/{object_id}', {
    params: { path: { slug, object_id: object.id } },
    body: { metadata: { rating: 5 } },
  });
  if (!patched.data) throw new Error(`patch: ${JSON.stringify(patched.error)}`);

  const missing = await client.GET('/v3/buckets/{slug}/objects/{object_id}', {
    params: { path: { slug, object_id: '000000000000000000000000' } },
  });
  // The error body is typed by the document: status and message, as every refusal answers.
  const notFound: ApiError | undefined = missing.error;

  return {
    typeSlug: type.data.object_type.slug,
    created: { id: object.id, rating: object.metadata.rating },
    listed: { titles: list.data.objects.map((o) => o.title ?? ''), total: list.data.total },
    narrowedTitle: narrowed.data?.object.title,
    patchedRating: patched.data.object.metadata.rating,
    notFound,
  };
}
