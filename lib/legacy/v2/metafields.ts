import type { Db } from 'mongodb';
import type { AppState } from '../../cache/app-state.js';
import type { Config } from '../../config.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { sendJson } from '../../http/respond.js';
import { requireRead, requireWrite } from '../../middleware/authenticate.js';
import { bucketOf } from '../../middleware/load-bucket.js';
import { readParams } from '../../middleware/read-params.js';
import { writeBody } from '../../middleware/write-body.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { renderObject, type ApiObject } from '../../serializers/object.js';
import { getObject } from '../../services/objects.js';
import { updateObject } from '../../services/object-writes.js';
import { objectRenderContext } from '../../services/render-context.js';
import { isPlainObject } from '../../util/plain-object.js';
import { route, type RouteDef } from '../../routes/route-table.js';

const READ = paramSet(['read_key', 'status']);

/** A v2 Metafields body (`{metafields: [{key, value, ...}]}`) as the v3 metadata patch it means. */
export function metafieldsPatch(body: unknown): Record<string, unknown> {
  const list = isPlainObject(body) ? body.metafields : undefined;
  if (!Array.isArray(list) || list.length === 0) {
    throw new BadRequestError('body.metafields must be a non-empty array of {key, value}', 'invalid_body');
  }
  const metadata: Record<string, unknown> = {};
  list.forEach((m: unknown, i) => {
    if (!isPlainObject(m) || typeof m.key !== 'string' || !Object.hasOwn(m, 'value')) {
      throw new BadRequestError(`body.metafields[${String(i)}] must have a string key and a value`, 'invalid_body');
    }
    metadata[m.key] = m.value;
  });
  return metadata;
}

/** A v2 single-Metafield body (`{value, ...}`): only `value` is content, the rest is the type's business. */
export function metafieldPatch(key: string, body: unknown): Record<string, unknown> {
  if (!isPlainObject(body) || !Object.hasOwn(body, 'value')) {
    throw new BadRequestError(`body must carry the value of Metafield '${key}'`, 'invalid_body');
  }
  return { [key]: body.value };
}

/** The v2 `metafields` array: the type's top-level Metafields, each with the Object's rendered value. */
export function metafieldsOf(object: ApiObject, definitions: readonly { key: string }[]): Record<string, unknown>[] {
  return definitions.map((d) => ({ ...d, value: object.metadata[d.key] ?? null }));
}

/**
 * v2 Metafield routes: edits go through the one Object write path (updateObject) as a metadata
 * patch, so validation, revisions and events are exactly v3's.
 */
export function metafieldRoutes(config: Config, db: Db, state: AppState): RouteDef[] {
  const { types: bucketTypes, writes } = state;
  const body = writeBody(config.jsonBodyLimit);
  const base = '/buckets/:slug/objects/:object_id/metafields';
  const patchAndRender = async (bucket: ReturnType<typeof bucketOf>, id: string, metadata: Record<string, unknown>) => {
    const doc = await updateObject(writes, bucket, id, { metadata });
    return renderObject(doc, await objectRenderContext(db, config, bucketTypes, bucket));
  };
  return [
    route('get', base, READ, requireRead, async (req, res) => {
      const bucket = bucketOf(res);
      const doc = await getObject(db, bucket, String(req.params.object_id), readParams(res, READ).status);
      const ctx = await objectRenderContext(db, config, bucketTypes, bucket);
      const definitions = ctx.types.get(doc.type)?.metafields ?? [];
      sendJson(res, 200, { metafields: metafieldsOf(renderObject(doc, ctx), definitions) });
    }),
    route('patch', base, NO_PARAMS, body, requireWrite, async (req, res) => {
      const object = await patchAndRender(bucketOf(res), String(req.params.object_id), metafieldsPatch(req.body));
      sendJson(res, 200, { object });
    }),
    route('patch', `${base}/:key`, NO_PARAMS, body, requireWrite, async (req, res) => {
      const key = String(req.params.key);
      const object = await patchAndRender(bucketOf(res), String(req.params.object_id), metafieldPatch(key, req.body));
      sendJson(res, 200, { object });
    }),
  ];
}
