import type { RequestHandler } from 'express';
import type { Db } from 'mongodb';
import { notFound } from '../errors/not-found.js';
import { etagMatches } from '../media/range.js';
import { bucketOf } from '../http/request.js';
import { readArchive } from './archive-store.js';
import { openBody, pipeBody } from './send-body.js';
import { findExtension } from './store.js';

/**
 * GET .../extensions/{id}/archive: the kept archive as it was installed, streamed from GridFS a
 * couple of chunks at a time rather than read whole into memory first.
 */
export function archiveDownloadHandler(db: Db): RequestHandler {
  return async (req, res) => {
    const bucket = bucketOf(res);
    const id = String(req.params.extension_id);
    const { archive } = await findExtension(db, bucket, id);
    if (!archive) throw notFound('extension', `${id}/archive`, bucket.slug);
    // A kept archive never changes, so its id tags it.
    const etag = `"${archive.file_id.toHexString()}"`;
    const notModified = etagMatches(req.get('if-none-match'), etag);
    const sendsBody = !notModified && req.method !== 'HEAD';
    const body = sendsBody ? await openBody(readArchive(db, archive.file_id, 0, archive.bytes)) : null;
    res.type('application/zip').set({
      'content-disposition': `attachment; filename="${archive.name.replace(/[^\w.-]/g, '_')}"`,
      etag,
    });
    if (notModified) {
      res.status(304).end();
      return;
    }
    res.status(200).set('content-length', String(archive.bytes));
    if (body) await pipeBody(res, body);
    else res.end();
  };
}
