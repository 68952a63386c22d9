import type { Db } from 'mongodb';
import type { AppState } from '../../app-state.js';
import type { Config } from '../../config.js';
import { cachedRead } from '../../middleware/cached-read.js';
import { sendJson } from '../../http/respond.js';
import { getFolder, listFolders } from '../../media/folder-reads.js';
import { createFolder, deleteFolder, renameFolder } from '../../media/folder-writes.js';
import { bucketOf } from '../../http/request.js';
import { readParams } from '../../http/request.js';
import { writeBody } from '../../middleware/write-body.js';
import { NO_PARAMS, paramSet } from '../../query/read-params.js';
import { readAccess, writeAccess } from '../../routes/access.js';
import { route, type RouteDef } from '../../routes/route-table.js';

const READ = paramSet(['read_key', 'useCache']);
const DELETE = paramSet(['move_to']);

/**
 * Media folders: a resource of their own beside the media (whose `folder` names one by slug),
 * guarded as media are, since folders are part of the media library.
 */
export function mediaFolderRoutes(config: Config, db: Db, state: AppState): RouteDef[] {
  const base = '/buckets/:slug/media-folders';
  const one = `${base}/:folder_slug`;
  const body = writeBody(config.jsonBodyLimit);
  const cache = state.reads;
  return [
    route('get', base, READ, readAccess('media'), async (req, res) => {
      const bucket = bucketOf(res);
      await cachedRead(cache, req, res, readParams(res, READ).useCache, async () => {
        const folders = await listFolders(db, bucket);
        return { folders, total: folders.length };
      });
    }),
    route('post', base, NO_PARAMS, writeAccess('media'), body, async (req, res) => {
      sendJson(res, 200, { folder: await createFolder(db, bucketOf(res), req.body) });
    }),
    route('get', one, READ, readAccess('media'), async (req, res) => {
      const bucket = bucketOf(res);
      await cachedRead(cache, req, res, readParams(res, READ).useCache, async () => ({
        folder: await getFolder(db, bucket, String(req.params.folder_slug)),
      }));
    }),
    route('patch', one, NO_PARAMS, writeAccess('media'), body, async (req, res) => {
      const folder = await renameFolder(db, bucketOf(res), String(req.params.folder_slug), req.body);
      sendJson(res, 200, { folder });
    }),
    route('delete', one, DELETE, writeAccess('media'), async (req, res) => {
      const slug = String(req.params.folder_slug);
      const moveTo = readParams(res, DELETE).move_to;
      const { moved } = await deleteFolder(db, bucketOf(res), slug, moveTo);
      const movedNote = moveTo === undefined ? '' : `; ${String(moved)} media moved to folder '${moveTo}'`;
      sendJson(res, 200, { message: `Folder with slug '${slug}' deleted successfully from bucket${movedNote}.` });
    }),
  ];
}
