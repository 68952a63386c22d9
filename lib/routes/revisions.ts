import type { Db } from 'mongodb';
import type { ReadCache } from '../cache/read-cache.js';
import type { Config } from '../config.js';
import { cachedRead } from '../http/cached-read.js';
import { booleanParam, singleParam } from '../http/params.js';
import { previewAwareStatus } from '../http/preview-status.js';
import { sendJson } from '../http/respond.js';
import { requireRead, requireWrite } from '../middleware/authenticate.js';
import { writeBody } from '../middleware/write-body.js';
import { bucketOf } from '../middleware/load-bucket.js';
import { parseListParams } from '../query/cursor.js';
import { parseProps, pickProps } from '../query/props.js';
import { parseSort } from '../query/sort.js';
import { renderRevision } from '../serializers/revision.js';
import { createDraftRevision } from '../services/draft-revisions.js';
import { getObject } from '../services/objects.js';
import { objectRenderContext } from '../services/render-context.js';
import { getRevision, listRevisions } from '../services/revisions.js';
import { route, type RouteDef } from './route-table.js';

/** Revisions can be created and read, never edited or deleted: other methods are unknown routes. */
export function revisionRoutes(config: Config, db: Db, cache: ReadCache): RouteDef[] {
  const base = '/buckets/:slug/objects/:object_id/revisions';
  return [
    route('get', base, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const params = parseListParams(req.query);
      const props = parseProps(singleParam(req, 'props'));
      const sort = parseSort(singleParam(req, 'sort'), { sortableKeys: new Set(), allowed: 'revisions' });
      await previewAwareStatus(req, res, db, config, 'any');
      await cachedRead(cache, req, res, params.useCache, async () => {
        const object = await getObject(db, bucket, String(req.params.object_id), 'any');
        const direction = sort.random ? -1 : sort.fields[0][1];
        const { revisions, total } = await listRevisions(db, bucket, object._id, {
          direction,
          limit: params.limit,
          skip: params.skip,
        });
        const ctx = await objectRenderContext(db, config, bucket);
        return { revisions: revisions.map((r) => pickProps(renderRevision(r, ctx), props)), total };
      });
    }),
    route('post', base, writeBody(config.jsonBodyLimit), requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const revision = await createDraftRevision(db, bucket, String(req.params.object_id), req.body);
      const ctx = await objectRenderContext(db, config, bucket);
      sendJson(req, res, 200, { revision: renderRevision(revision, ctx) });
    }),
    route('get', `${base}/:revision_id`, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const props = parseProps(singleParam(req, 'props'));
      const useCache = booleanParam(req, 'useCache', booleanParam(req, 'use_cache', true));
      await previewAwareStatus(req, res, db, config, 'any');
      await cachedRead(cache, req, res, useCache, async () => {
        const object = await getObject(db, bucket, String(req.params.object_id), 'any');
        const revision = await getRevision(db, bucket, object._id, String(req.params.revision_id));
        const ctx = await objectRenderContext(db, config, bucket);
        return { revision: pickProps(renderRevision(revision, ctx), props) };
      });
    }),
  ];
}
