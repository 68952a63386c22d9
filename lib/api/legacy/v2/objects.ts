import type { Db } from 'mongodb';
import type { AppState } from '../../../app-state.js';
import type { Config } from '../../../config.js';
import { paramOf, readParams } from '../../../http/request.js';
import { paramSet } from '../../../query/read-params.js';
import { v1ListParamProblems } from '../../../query/v1-list-params.js';
import { OBJECT_LIST_NAMES, OBJECT_ONE_NAMES, objectReadHandlers, type ObjectAddition } from '../../objects/routes.js';
import { route, type RouteDef } from '../../../routes/route-table.js';
import { metafieldsOf } from './metafields.js';
import { readAccess, BY_OBJECT_ID } from '../../../routes/access.js';

const LIST = paramSet([...OBJECT_LIST_NAMES, 'show_metafields'], {}, v1ListParamProblems);
const ONE = paramSet([...OBJECT_ONE_NAMES, 'show_metafields']);

const withMetafields: ObjectAddition = (object, ctx, own) => ({ metafields: metafieldsOf(object, ctx, own) });

/**
 * v2 Object reads: v3's handlers, plus `show_metafields=true`, which adds each Object's
 * `metafields` array (its type's Metafields with their values). With `props` the listed
 * properties alone are answered, as v3 does.
 */
export function v2ObjectReadRoutes(config: Config, db: Db, state: AppState): RouteDef[] {
  const reads = objectReadHandlers(config, db, state, {
    list: (res) => readParams(res, LIST),
    one: (res) => readParams(res, ONE),
    addition: (res) => (paramOf(res, 'show_metafields') && paramOf(res, 'props') === null ? withMetafields : null),
  });
  return [
    route(
      'get',
      '/buckets/:slug/objects',
      LIST,
      readAccess('objects', { list: true, type: { filter: 'type' } }),
      reads.list,
    ),
    route('get', '/buckets/:slug/objects/:object_id', ONE, readAccess('objects', BY_OBJECT_ID), reads.one),
  ];
}
