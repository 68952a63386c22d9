import type { StatusFilter } from '../query/read-params.js';

/** What every read takes besides its target. */
export interface ReadArgs {
  status?: StatusFilter | null;
  locale?: string | null;
}

/** A list's arguments, as v3's list parameters. */
export interface ListArgs extends ReadArgs {
  query?: unknown;
  sort?: string | null;
  limit?: number | null;
  skip?: number | null;
  after?: string | null;
}

/** An Object as the v3 API renders it (lib/render/objects.ts). */
export type RenderedObject = Record<string, unknown>;

/**
 * The Objects of the request's Bucket, through the v3 services with the request's credential
 * and rules (resolve.ts). `depth`: the relationship levels the selection asks for.
 */
export interface GraphQLObjects {
  list(type: string, args: ListArgs, depth: number): Promise<{ objects: RenderedObject[]; total: number }>;
  byId(type: string, id: string, args: ReadArgs, depth: number): Promise<RenderedObject | null>;
  bySlug(type: string, slug: string, args: ReadArgs, depth: number): Promise<RenderedObject | null>;
  create(type: string, body: Record<string, unknown>): Promise<RenderedObject>;
  update(type: string, id: string, body: Record<string, unknown>): Promise<RenderedObject>;
  remove(type: string, id: string, notify: boolean): Promise<boolean>;
}

/** A type rather than an interface: graphql-http takes a context that is a record. */
export type GraphQLContext = {
  objects: GraphQLObjects;
};
