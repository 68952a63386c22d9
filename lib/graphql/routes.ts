import type { Request, RequestHandler, Response } from 'express';
import { NoSchemaIntrospectionCustomRule, specifiedRules } from 'graphql';
import { createHandler } from 'graphql-http';
import type { RouteDeps } from '../api/deps.js';
import { route, type RouteDef } from '../routes/route-table.js';
import { readAccess } from '../routes/access.js';
import { paramSet } from '../query/read-params.js';
import { bucketOf } from '../http/request.js';
import { jsonBody } from '../http/json-body.js';
import type { GraphQLContext } from './context.js';
import { complexityRule } from './limits.js';
import { formatGraphQLError } from './errors.js';
import { requestObjects } from './resolve.js';
import { BucketSchemas } from './schema-cache.js';
import { DocumentCache } from './document-cache.js';
import { readParams } from '../http/request.js';
import { answerKey, isKeepable, markKeepable, type KeptAnswer } from './answer-cache.js';

/** What GET takes in its query string (GraphQL over HTTP), beside the read key. */
export const GRAPHQL_PARAMS = paramSet(['read_key', 'query', 'variables', 'operationName', 'useCache']);

/**
 * POST and GET /buckets/{slug}/graphql (GraphQL over HTTP, by graphql-http): the Bucket's schema
 * (schema-cache.ts) over the v3 services. Declared as a read of Objects: every read key, write key
 * or member that may read gets in, as for GET /objects; a mutation then asks for what a REST
 * write would (resolve.ts, write-access.ts), so a read key can query and never write.
 */
export function graphqlRoutes({ config, db, state, log }: RouteDeps): RouteDef[] {
  const schemas = new BucketSchemas();
  const documents = new DocumentCache();
  const limits = complexityRule(config.graphql);
  const rules = [...specifiedRules, limits, ...(config.graphql.introspection ? [] : [NoSchemaIntrospectionCustomRule])];
  const handle = createHandler<Request, Response, GraphQLContext>({
    schema: (req) => schemas.of(db, state.types, bucketOf(req.context)),
    context: (req) => ({ objects: requestObjects(config, db, state, req.raw, req.context, bucketOf(req.context)) }),
    validationRules: rules,
    formatError: formatGraphQLError(log),
    onOperation: markKeepable,
    parse: documents.parse,
    validate: documents.validate,
  });
  const answer = (res: Response, { status, contentType, body }: KeptAnswer) => {
    res.status(status).set('Content-Type', contentType).send(body);
  };
  const handler: RequestHandler = async (req, res) => {
    const key = answerKey(req, res);
    // useCache=false reads through and refreshes the kept answer, as for REST reads.
    const kept = readParams(res, GRAPHQL_PARAMS).useCache ? state.reads.get(key) : undefined;
    if (kept !== undefined) {
      res.set('X-Cache', 'HIT');
      answer(res, JSON.parse(kept) as KeptAnswer);
      return;
    }
    const [body, init] = await handle({
      url: req.url,
      method: req.method,
      headers: req.headers,
      // A POST's body as jsonBody parsed it; GET has none.
      body: () => (req.method === 'POST' ? (req.body as Record<string, unknown>) : null),
      raw: req,
      context: res,
    });
    const done: KeptAnswer = {
      status: init.status,
      contentType: init.headers?.['content-type'] ?? 'application/json; charset=utf-8',
      body: body ?? '',
    };
    if (isKeepable(res)) {
      state.reads.set(key, JSON.stringify(done));
      res.set('X-Cache', 'MISS');
    }
    answer(res, done);
  };
  const path = '/buckets/:slug/graphql';
  const access = readAccess('objects', { list: true });
  return [
    route('get', path, GRAPHQL_PARAMS, access, handler),
    route('post', path, GRAPHQL_PARAMS, access, jsonBody(config.jsonBodyLimit), handler),
  ];
}
