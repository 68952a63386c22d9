import type { Db } from 'mongodb';
import type { Config } from '../../config.js';
import { sendJson } from '../../http/respond.js';
import { bucketOf } from '../../http/request.js';
import { listObjectTypes } from '../../store/type-reads.js';
import { paramSet } from '../../query/read-params.js';
import { readAccess } from '../../routes/access.js';
import { route, type RouteDef } from '../../routes/route-table.js';
import { bucketDocument } from '../../openapi/bucket-document.js';
import { openApiDocument } from '../../openapi/document.js';

/** The served document with one Bucket's Object types (lib/openapi/bucket-document.ts). */
export function bucketDocumentRoutes(config: Config, db: Db): RouteDef[] {
  // Built from files on first use, then shared by every Bucket's document (which copies what it changes).
  let base: Record<string, unknown> | undefined;
  return [
    route(
      'get',
      '/buckets/:slug/openapi.json',
      paramSet(['read_key']),
      // Exactly what the Object types list tells, in another form.
      readAccess('object_types'),
      async (_req, res) => {
        const bucket = bucketOf(res);
        base ??= openApiDocument(config.publicUrl);
        sendJson(res, 200, bucketDocument(base, bucket.slug, await listObjectTypes(db, bucket)));
      },
    ),
  ];
}
