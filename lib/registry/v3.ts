import { batchAndPreviewRoutes } from '../api/objects/batch-preview-routes.js';
import { blocksRoutes } from '../api/blocks/routes.js';
import { mediaRoutes } from '../api/media/routes.js';
import { mergeRequestRoutes } from '../api/merge-requests/routes.js';
import { mediaFolderRoutes } from '../api/media/folder-routes.js';
import { metaRoutes } from './meta-routes.js';
import { objectTypeRoutes } from '../api/object-types/routes.js';
import { metafieldKeyRoutes } from '../api/object-types/metafield-key-routes.js';
import { bucketDocumentRoutes } from '../api/openapi/bucket-routes.js';
import { objectRoutes } from '../api/objects/routes.js';
import { revisionRoutes } from '../api/revisions/routes.js';
import type { RouteDef } from '../routes/route-table.js';
import type { RouteDeps } from '../api/deps.js';
import { usageRoutes } from '../api/buckets/usage-routes.js';
import { webhookRoutes } from '../api/webhooks/routes.js';
import { graphqlRoutes } from '../graphql/routes.js';
import { realtimeRoutes } from '../realtime/routes.js';

/** All v3 routes, in matching order (specific paths before parameterised siblings). */
export function v3Routes({ config, db, state, log, health }: RouteDeps): RouteDef[] {
  return [
    ...metaRoutes(config, health),
    ...blocksRoutes(db),
    ...objectTypeRoutes(config, state),
    ...metafieldKeyRoutes(config, state),
    ...bucketDocumentRoutes(config, db),
    ...batchAndPreviewRoutes(config, db, state, log),
    ...objectRoutes(config, db, state),
    ...revisionRoutes(config, db, state),
    ...mediaRoutes(config, state),
    ...mediaFolderRoutes(config, db, state),
    ...webhookRoutes(config, db),
    ...realtimeRoutes(config, db, state.streams, log),
    ...usageRoutes(config, state),
    ...mergeRequestRoutes(config, db, state),
    ...graphqlRoutes({ config, db, state, log, health }),
  ];
}
