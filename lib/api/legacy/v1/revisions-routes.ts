import type { Db } from 'mongodb';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import { typeScopeOf } from '../../../accounts/type-scope.js';
import { sendJson } from '../../../http/respond.js';
import { bucketOf } from '../../../http/request.js';
import { readParams } from '../../../http/request.js';
import { writeBody } from '../../../middleware/write-body.js';
import { pickProps } from '../../../query/props.js';
import { NO_PARAMS, paramSet } from '../../../query/read-params.js';
import { parseSort } from '../../../query/sort.js';
import { createDraftRevision } from '../../../revisions/draft-revisions.js';
import { objectRenderContext } from '../../../render/objects.js';
import { listRevisions } from '../../../objects/revisions.js';
import { objectIdFromHex } from '../../../util/values.js';
import { bodyOf, v3ObjectBody } from './bodies.js';
import { objectIdBySlug, typeSlugOf } from '../../../objects/find-object.js';
import { parseV1Read, type V1ParamName } from './list-params.js';
import { toV1Revision } from './object-shape.js';
import { sendRead, v1Route, type V1Route } from './route.js';
import { readAccess, writeAccess, BY_PATH_SLUG } from '../../../routes/access.js';

const LIST = paramSet(['read_key', 'sort', 'limit', 'skip']);
const LIST_NAMES: readonly V1ParamName[] = ['props', 'hide_metafields'];

/** Revisions of the Object a slug names, newest first, in the v1 Object shape plus their own id. */
export function revisionRoutes(config: Config, db: Db, state: AppState): V1Route[] {
  const base = '/:slug/object/:object_slug/revisions';
  const list = v1Route('get', base, LIST, readAccess('objects', BY_PATH_SLUG), async (req, res) => {
    const bucket = bucketOf(res);
    const { limit, skip, sort: rawSort } = readParams(res, LIST);
    const sort = parseSort(rawSort, { sortableKeys: new Set(), allowed: 'revisions' });
    const { props, hideMetafields } = parseV1Read(req.query, LIST_NAMES, []);
    const objectId = objectIdFromHex(
      await objectIdBySlug(db, bucket, String(req.params.object_slug), {}, typeScopeOf(res)),
    );
    if (!objectId) throw new Error('objectIdBySlug returned a malformed id');
    const direction = sort.random ? -1 : sort.fields[0][1];
    await sendRead(res, async () => {
      const { revisions, total } = await listRevisions(db, bucket, objectId, { direction, limit, skip });
      const ctx = await objectRenderContext(db, config, state.types, bucket);
      return { revisions: revisions.map((r) => pickProps(toV1Revision(r, ctx, hideMetafields), props)), total };
    });
  });
  return [
    { ...list, v1Params: LIST_NAMES },
    v1Route(
      'post',
      base,
      NO_PARAMS,
      writeAccess('objects', BY_PATH_SLUG),
      writeBody(config.jsonBodyLimit),
      async (req, res) => {
        const bucket = bucketOf(res);
        const raw = bodyOf(req.body);
        const id = await objectIdBySlug(db, bucket, String(req.params.object_slug), raw, typeScopeOf(res));
        // v1 bodies name the Object again (slug, type_slug, locale); the rest is judged by RevisionCreate.
        const typeSlug = await typeSlugOf(db, bucket, id);
        const defs = typeSlug === undefined ? undefined : (await state.types.of(db, bucket)).get(typeSlug)?.metafields;
        const { locale: _narrowed, ...body } = v3ObjectBody(raw, 'edit-by-slug', defs).body;
        const revision = await createDraftRevision(state.writesFor(res), bucket, id, body);
        const ctx = await objectRenderContext(db, config, state.types, bucket);
        sendJson(res, 200, { revision: toV1Revision(revision, ctx, false) });
      },
    ),
  ];
}
