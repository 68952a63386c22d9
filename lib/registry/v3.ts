import { batchAndPreviewRoutes } from '../objects/batch-preview-routes.js';
import { blocksRoutes } from '../blocks/routes.js';
import { mediaRoutes } from '../media/routes.js';
import { mergeRequestRoutes } from '../merge-requests/routes.js';
import { mediaFolderRoutes } from '../media/folder-routes.js';
import { metaRoutes } from './meta-routes.js';
import { objectTypeRoutes } from '../object-types/routes.js';
import { metafieldKeyRoutes } from '../object-types/metafield-key-routes.js';
import { bucketDocumentRoutes } from '../openapi/bucket-routes.js';
import { objectRoutes } from '../objects/routes.js';
import { revisionRoutes } from '../revisions/routes.js';
import type { RouteDef } from '../routes/route-table.js';
import type { RouteDeps } from '../routes/deps.js';
import { usageRoutes } from '../buckets/usage-routes.js';
import { webhookRoutes } from '../webhooks/routes.js';
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
