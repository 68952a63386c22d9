import type { Db } from 'mongodb';
import type { AppState } from '../../cache/app-state.js';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import { requireRead, requireWrite } from '../../middleware/authenticate.js';
import { bucketOf } from '../../middleware/load-bucket.js';
import { readParams } from '../../middleware/read-params.js';
import { writeBody } from '../../middleware/write-body.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { renderRevision } from '../../serializers/revision.js';
import { createDraftRevision } from '../../services/draft-revisions.js';
import { objectRenderContext } from '../../services/render-context.js';
import { listRevisions } from '../../services/revisions.js';
import { objectIdFromHex } from '../../util/object-id.js';
import { bodyOf, v3ObjectBody } from './bodies.js';
import { objectIdBySlug } from './find-object.js';
import { toV1Object } from './object-shape.js';
import { v1Route, type V1Route } from './route.js';

const LIST = paramSet(['read_key', 'limit', 'skip']);
/** What a v1 revision body may carry that v3's RevisionCreate takes. */
const REVISION_FIELDS = ['title', 'content', 'metadata', 'status'];

/** Revisions of the Object a slug names, newest first, in the v1 Object shape plus their own id. */
export function revisionRoutes(config: Config, db: Db, state: AppState): V1Route[] {
  const base = '/:slug/object/:object_slug/revisions';
  return [
    v1Route('get', base, LIST, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const { limit, skip } = readParams(res, LIST);
      const id = await objectIdBySlug(db, bucket, String(req.params.object_slug));
      const objectId = objectIdFromHex(id);
      if (!objectId) throw new Error('objectIdBySlug returned a malformed id');
      const { revisions, total } = await listRevisions(db, bucket, objectId, { direction: -1, limit, skip });
      const ctx = await objectRenderContext(db, config, state.types, bucket);
      const shaped = revisions.map((r) => {
        const { object_id, ...rest } = renderRevision(r, ctx);
        return { ...toV1Object({ ...rest, id: object_id }, ctx.types.get(r.type), false), revision_id: rest.id };
      });
      sendJson(res, 200, { revisions: shaped, total });
    }),
    v1Route('post', base, NO_PARAMS, writeBody(config.jsonBodyLimit), requireWrite, async (req, res) => {
      const bucket = bucketOf(res);
      const id = await objectIdBySlug(db, bucket, String(req.params.object_slug));
      const { body } = v3ObjectBody(bodyOf(req.body), 'edit');
      const v3 = Object.fromEntries(Object.entries(body).filter(([k]) => REVISION_FIELDS.includes(k)));
      const revision = await createDraftRevision(state.writes, bucket, id, v3);
      const ctx = await objectRenderContext(db, config, state.types, bucket);
      const { object_id, ...rest } = renderRevision(revision, ctx);
      const shaped = toV1Object({ ...rest, id: object_id }, ctx.types.get(revision.type), false);
      sendJson(res, 200, { revision: { ...shaped, revision_id: rest.id } });
    }),
  ];
}
