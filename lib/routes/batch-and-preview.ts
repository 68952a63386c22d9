import type { Db } from 'mongodb';
import type { Config } from '../config.js';
import { sendJson } from '../http/respond.js';
import { requireWrite } from '../middleware/authenticate.js';
import { writeBody } from '../middleware/write-body.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { renderObject } from '../serializers/object.js';
import { runBatch } from '../services/batch.js';
import { getObject } from '../services/objects.js';
import { issuePreviewToken } from '../services/preview-tokens.js';
import { objectRenderContext } from '../services/render-context.js';
import { assertValid } from '../validation/ajv-messages.js';
import { route, type RouteDef } from './route-table.js';

/** Write routes over several Objects at once, and the preview-token issuer (an addition to the spec). */
export function batchAndPreviewRoutes(config: Config, db: Db, log: (m: string) => void): RouteDef[] {
  const body = writeBody(config.jsonBodyLimit);
  return [
    route('post', '/buckets/:slug/objects/batch', body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const results = await runBatch(db, bucket, req.body, log);
      const ctx = await objectRenderContext(db, config, bucket);
      const operations = results.map((r) => ('object' in r ? { ...r, object: renderObject(r.object, ctx) } : r));
      sendJson(req, res, 200, { operations });
    }),
    route('post', '/buckets/:slug/preview-tokens', body, requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      assertValid('PreviewTokenRequest', req.body, 'body');
      const objectId = (req.body as { object_id?: string }).object_id ?? null;
      if (objectId) await getObject(db, bucket, objectId, 'any');
      sendJson(req, res, 200, await issuePreviewToken(db, config.previewTokenSecret, bucket, objectId));
    }),
  ];
}
