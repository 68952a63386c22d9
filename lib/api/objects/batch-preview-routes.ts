import type { Db } from 'mongodb';
import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { batchScopeCheck, typeScopeOf } from '../../accounts/type-scope.js';
import { sendJson } from '../../http/respond.js';
import { writeBody } from '../../middleware/write-body.js';
import { bucketOf } from '../../http/request.js';
import { NO_PARAMS } from '../../query/read-params.js';
import { renderObject } from '../../render/objects.js';
import type { BatchResponse } from '../../objects/batch.js';
import { runBatch } from '../../objects/batch.js';
import { getObject } from '../../objects/objects.js';
import { issuePreviewToken } from '../../preview/preview-tokens.js';
import { objectRenderContext } from '../../render/objects.js';
import { assertValid } from '../../validation/ajv-messages.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { writeAccess } from '../../routes/access.js';

/** Write routes over several Objects at once, and the preview-token issuer (an addition to the spec). */
export function batchAndPreviewRoutes(config: Config, db: Db, state: AppState, log: (m: string) => void): RouteDef[] {
  const body = writeBody(config.jsonBodyLimit);
  return [
    route(
      'post',
      '/buckets/:slug/objects/batch',
      NO_PARAMS,
      writeAccess('objects', { batch: true }),
      body,
      async (req, res) => {
        const bucket = bucketOf(res);
        const check = batchScopeCheck(db, bucket, typeScopeOf(res));
        const results = await runBatch(state.writesFor(res), bucket, req.body, log, check);
        const ctx = await objectRenderContext(db, config, state.types, bucket);
        const operations = results.map((r) => ('object' in r ? { ...r, object: renderObject(r.object, ctx) } : r));
        sendJson(res, 200, { operations } satisfies BatchResponse);
      },
    ),
    route(
      'post',
      '/buckets/:slug/preview-tokens',
      NO_PARAMS,
      writeAccess('objects', { id: { body: ['object_id'] } }),
      body,
      async (req, res) => {
        const bucket = bucketOf(res);
        const input: unknown = req.body;
        assertValid('PreviewTokenRequest', input, 'body');
        const objectId = input.object_id ?? null;
        if (objectId) await getObject(db, bucket, objectId, 'any');
        sendJson(res, 200, await issuePreviewToken(state.previewSecret, bucket, objectId));
      },
    ),
  ];
}
