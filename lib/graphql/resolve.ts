import type { Request, Response } from 'express';
import type { Db } from 'mongodb';
import type { AppState } from '../app-state.js';
import type { Config } from '../config.js';
import type { BucketDoc, ObjectDoc } from '../db/collections.js';
import { BadRequestError } from '../errors/http-errors.js';
import { notFound } from '../errors/not-found.js';
import { forbidden } from '../accounts/request-account.js';
import { outsideScope, scopeMessage, typeOfObject, typeScopeOf } from '../accounts/type-scope.js';
import { listObjects } from '../objects/list/object-list.js';
import { getObjectExpanded } from '../objects/object-read.js';
import { objectRenderContext } from '../render/objects.js';
import { renderObject, renderObjects } from '../render/objects.js';
import { createObject, updateObject } from '../objects/write/object-writes.js';
import { removeObject } from '../objects/write/object-delete.js';
import { readBounds } from '../query/read-budget.js';
import { paramSet, parseReadParams } from '../query/read-params.js';
import { isPlainObject } from '../util/values.js';
import type { GraphQLObjects, ListArgs, ReadArgs, RenderedObject } from './context.js';
import { writeAllowed } from './write-access.js';

/** The v3 list parameters a GraphQL list takes as arguments: parsed by the same rules, with the same messages. */
const LIST_ARGS = paramSet(['sort', 'limit', 'skip', 'after', 'status']);

/** The arguments given (not null), as a query string would carry them. */
function given(args: Record<string, string | number | null | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(args).flatMap(([k, v]) => (v === null || v === undefined ? [] : [[k, String(v)]])),
  );
}

/** A list's `query` argument, narrowed to its type (and locale): the v3 filter, as JSON text. */
function listFilter(type: string, args: ListArgs): string {
  const given = args.query ?? {};
  if (!isPlainObject(given))
    throw new BadRequestError('query must be a JSON object (a v3 query filter)', 'invalid_query');
  if (given.type !== undefined && given.type !== type)
    throw new BadRequestError(
      `query names type ${JSON.stringify(given.type)}; this field lists ${type}`,
      'invalid_query',
    );
  return JSON.stringify({ ...given, type, ...(typeof args.locale === 'string' && { locale: args.locale }) });
}

/**
 * The Objects of the request's Bucket through the v3 services, with the request's credential
 * and rules: the same list, read and write functions the REST routes call, the same checks of a
 * contributor's types and a draft-only account's publishing (write-access.ts), the same errors.
 */
export function requestObjects(
  config: Config,
  db: Db,
  state: AppState,
  req: Request,
  res: Response,
  bucket: BucketDoc,
): GraphQLObjects {
  const bounds = readBounds(config);
  const scope = typeScopeOf(res);
  const inScope = (type: string) => {
    if (scope && outsideScope(scope, type)) throw forbidden(bucket.slug, scopeMessage(scope));
  };
  const render = async (docs: readonly ObjectDoc[]): Promise<RenderedObject[]> => {
    const ctx = await objectRenderContext(db, config, state.types, bucket);
    return renderObjects(docs, ctx);
  };
  const one = async (doc: ObjectDoc): Promise<RenderedObject> => {
    const ctx = await objectRenderContext(db, config, state.types, bucket);
    return renderObject(doc, ctx);
  };
  const list = async (type: string, args: ListArgs, depth: number) => {
    inScope(type);
    const { values, problems } = parseReadParams(
      given({ sort: args.sort, limit: args.limit, skip: args.skip, after: args.after, status: args.status }),
      LIST_ARGS,
    );
    if (problems.length > 0)
      throw new BadRequestError(`Invalid arguments: ${problems.join('; ')}`, 'invalid_parameter');
    const types = await state.types.of(db, bucket);
    const q = { ...values, query: listFilter(type, args), props: null, depth, typeScope: scope };
    const { docs, total } = await listObjects(db, bucket, types, q, bounds, state);
    return { objects: await render(docs as ObjectDoc[]), total };
  };
  /** An Object read by id, if it is of `type` (an id of another type is not found, as its type's lookup). */
  const byId = async (type: string, id: string, args: ReadArgs, depth: number) => {
    inScope(type);
    const status = args.status ?? 'published';
    try {
      const doc = await getObjectExpanded(db, bucket, id, { status, depth, typeScope: scope }, bounds);
      if (doc.type !== type || (typeof args.locale === 'string' && doc.locale !== args.locale)) return null;
      return await one(doc);
    } catch (err) {
      if (err instanceof Error && 'code' in err && err.code === 'object_not_found') return null;
      throw err;
    }
  };
  const bySlug = async (type: string, slug: string, args: ReadArgs, depth: number) => {
    const page = await list(type, { ...args, query: { slug }, limit: 1 }, depth);
    return page.objects[0] ?? null;
  };
  /** The Object `id` if it is of `type`; else the 404 REST answers for an unknown id. */
  const ofType = async (type: string, id: string) => {
    const found = await typeOfObject(db, bucket, id);
    if (found !== type) throw notFound('object', id, bucket.slug);
  };
  return {
    list,
    byId,
    bySlug,
    async create(type, body) {
      inScope(type);
      const data = { ...body, type };
      await writeAllowed(db, req, res, bucket, { creates: true, body: data });
      return one(await createObject(state.writesFor(res), bucket, data, {}));
    },
    async update(type, id, body) {
      inScope(type);
      await writeAllowed(db, req, res, bucket, { id, body });
      await ofType(type, id);
      return one(await updateObject(state.writesFor(res), bucket, id, body, {}));
    },
    async remove(type, id, notify) {
      inScope(type);
      await writeAllowed(db, req, res, bucket, { id, deletes: true, body: {} });
      await ofType(type, id);
      await removeObject(state.writes, bucket, id, notify);
      return true;
    },
  };
}
