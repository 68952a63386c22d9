import { Router } from 'express';
import { requireRead } from '../middleware/authenticate.js';
import { sendJson } from '../http/respond.js';

/** Blocks are not configurable yet: every Bucket lists none. Mounted under /buckets/:slug. */
export function blocksRouter(): Router {
  const router = Router({ mergeParams: true });
  router.get('/blocks', requireRead, (req, res) => {
    sendJson(req, res, 200, { blocks: [] });
  });
  return router;
}
