import type { Db } from 'mongodb';
import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { cachedRead } from '../../middleware/cached-read.js';
import { previewAwareStatus } from '../../preview/preview-status.js';
import { sendJson } from '../../http/respond.js';
import { writeBody } from '../../middleware/write-body.js';
import { bucketOf } from '../../http/request.js';
import { readParams } from '../../http/request.js';
import { pickProps } from '../../query/props.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { parseSort } from '../../query/sort.js';
import type { Picked } from '../../query/props.js';
import type { RevisionList, RevisionResponse } from '../../render/revisions.js';
import { renderRevision } from '../../render/revisions.js';
import { createDraftRevision } from '../../revisions/draft-revisions.js';
import { getObject } from '../../objects/objects.js';
import { objectRenderContext } from '../../render/objects.js';
import { getRevision, listRevisions } from '../../objects/revisions.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { readAccess, writeAccess, BY_OBJECT_ID } from '../../routes/access.js';

// Revisions page with skip only; an ignored `after` would hand a client the first page forever.
const LIST = paramSet(['read_key', 'preview_token', 'props', 'sort', 'limit', 'skip', 'useCache'], {
  after: 'after is not supported on revisions; paginate with skip',
});
const ONE = paramSet(['read_key', 'preview_token', 'props', 'useCache']);

/** Revisions can be created and read, never edited or deleted: other methods are unknown routes. */
export function revisionRoutes(config: Config, db: Db, state: AppState): RouteDef[] {
  const { reads: cache, types: bucketTypes, previewSecret } = state;
  const base = '/buckets/:slug/objects/:object_id/revisions';
  return [
    route('get', base, LIST, readAccess('objects', BY_OBJECT_ID), async (req, res) => {
      const bucket = bucketOf(res);
      const params = readParams(res, LIST);
      const sort = parseSort(params.sort, { sortableKeys: new Set(), allowed: 'revisions' });
      // Revisions show drafts anyway; a token is still verified, so a bad one is a 401 here too.
      await previewAwareStatus(res, previewSecret, params.preview_token, 'any');
      await cachedRead(cache, req, res, params.useCache, async () => {
        const object = await getObject(db, bucket, String(req.params.object_id), 'any');
        const direction = sort.random ? -1 : sort.fields[0][1];
        const { revisions, total } = await listRevisions(db, bucket, object._id, {
          direction,
          limit: params.limit,
          skip: params.skip,
        });
        const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
        return {
          revisions: revisions.map((r) => pickProps(renderRevision(r, ctx), params.props)),
          total,
        } satisfies RevisionList;
      });
    }),
    route(
      'post',
      base,
      NO_PARAMS,
      writeAccess('objects', BY_OBJECT_ID),
      writeBody(config.jsonBodyLimit),
      async (req, res) => {
        const bucket = bucketOf(res);
        const revision = await createDraftRevision(
          state.writesFor(res),
          bucket,
          String(req.params.object_id),
          req.body,
        );
        const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
        sendJson(res, 200, { revision: renderRevision(revision, ctx) } satisfies RevisionResponse);
      },
    ),
    route('get', `${base}/:revision_id`, ONE, readAccess('objects', BY_OBJECT_ID), async (req, res) => {
      const bucket = bucketOf(res);
      const params = readParams(res, ONE);
      await previewAwareStatus(res, previewSecret, params.preview_token, 'any');
      await cachedRead(cache, req, res, params.useCache, async () => {
        const object = await getObject(db, bucket, String(req.params.object_id), 'any');
        const revision = await getRevision(db, bucket, object._id, String(req.params.revision_id));
        const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
        return { revision: pickProps(renderRevision(revision, ctx), params.props) } satisfies RevisionResponse<Picked>;
      });
    }),
  ];
}
