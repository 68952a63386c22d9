import type { Db } from 'mongodb';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import { typeScopeOf } from '../../../accounts/type-scope.js';
import { bucketOf } from '../../../http/request.js';
import { readParams } from '../../../http/request.js';
import { pickProps } from '../../../query/props.js';
import { paramSet } from '../../../query/read-params.js';
import { objectRenderContext } from '../../../render/objects.js';
import { getRevision } from '../../../objects/revisions.js';
import { objectIdFromHex } from '../../../util/values.js';
import { objectIdBySlug } from '../../../objects/find-object.js';
import type { V1ParamName } from './list-params.js';
import { toV1Revision } from './object-shape.js';
import { readV1Objects, readV1Params } from './objects-read.js';
import { sendRead, v1Route, type V1Route } from './route.js';
import { readAccess, BY_PATH_SLUG } from '../../../routes/access.js';

const ONE = paramSet(['read_key', 'depth', 'useCache']);
const ONE_NAMES: readonly V1ParamName[] = ['status', 'locale', 'props', 'hide_metafields', 'revision'];

/**
 * `GET /:slug/object/:object_slug`: the Object the slug names (narrowed by `locale`) in the
 * status asked for, or with `revision` that Object as the revision holds it, whatever its status.
 */
export function readOneV1Object(config: Config, db: Db, state: AppState): V1Route {
  const route = v1Route(
    'get',
    '/:slug/object/:object_slug',
    ONE,
    readAccess('objects', BY_PATH_SLUG),
    async (req, res) => {
      const bucket = bucketOf(res);
      const { depth } = readParams(res, ONE);
      const slug = String(req.params.object_slug);
      const read = await readV1Params(db, state, req, res, ONE_NAMES, [{ slug }]);
      const { revision, hideMetafields, props } = read.params;
      await sendRead(res, async () => {
        if (revision === undefined) {
          const page = await readV1Objects(db, config, state, res, read, { limit: 1, skip: 0, depth });
          return { object: page.objects[0] };
        }
        const objectId = objectIdFromHex(
          await objectIdBySlug(db, bucket, slug, { locale: req.query.locale }, typeScopeOf(res)),
        );
        if (!objectId) throw new Error('objectIdBySlug returned a malformed id');
        const found = await getRevision(db, bucket, objectId, revision);
        const ctx = await objectRenderContext(db, config, state.types, bucket);
        return { object: pickProps(toV1Revision(found, ctx, hideMetafields), props) };
      });
    },
  );
  return { ...route, v1Params: ONE_NAMES };
}
