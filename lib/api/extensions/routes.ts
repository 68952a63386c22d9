import type { RequestHandler, Response } from 'express';
import type { Db } from 'mongodb';
import type { Config } from '../../config.js';
import { BadRequestError } from '../../errors/http-errors.js';
import { sendJson } from '../../http/respond.js';
import { jsonBody } from '../../http/json-body.js';
import { bucketOf } from '../../http/request.js';
import type { ExtensionCreate } from '../../types/bodies.generated.js';
import { assertValid } from '../../validation/ajv-messages.js';
import { actorOf, requireExtensionAdmin, requireExtensionReader } from '../../extensions/access.js';
import { archiveDownloadHandler } from '../../extensions/archive-download.js';
import type { ExtensionDoc } from '../../store/extensions.js';
import { extensionFileHandler } from '../../extensions/files.js';
import { extensionJson } from '../../extensions/serialize.js';
import { ExtensionService } from '../../extensions/service.js';
import { deleteExtension, findExtension, listExtensions } from '../../extensions/store.js';
import { extensionBody } from '../../extensions/upload.js';
import { accountOnly, PUBLIC, readAccess, writeAccess, type Access } from '../../routes/access.js';

export type ExtensionMethod = 'get' | 'post' | 'put' | 'delete';
export interface ExtensionRoute {
  method: ExtensionMethod;
  /** Relative to the Bucket's Extensions path: '', '/:extension_id', or below it '/archive' and '/files/*path'. */
  sub: string;
  access: Access;
  handlers: RequestHandler[];
}

export interface ExtensionRouteDeps {
  config: Config;
  db: Db;
  /** Certificates the outbound checks trust besides the system's (tests only). */
  outboundCa?: string | Buffer | undefined;
}

const idOf = (p: Record<string, unknown>) => String(p.extension_id);

/** Fields of the multipart form besides the file: only the optional decorations. */
function formFields(body: unknown): ExtensionCreate {
  const fields: unknown = body ?? {};
  assertValid('ExtensionCreate', fields, 'form');
  if (fields.url !== undefined || fields.zip_url !== undefined) {
    throw new BadRequestError(
      'Invalid form: send the archive in zip, or url or zip_url as JSON, not both',
      'invalid_body',
    );
  }
  return fields;
}

/**
 * The Extensions routes, mounted under each legacy version's Bucket path; `base` is that path
 * for a Bucket slug, which the zip_url of an uploaded archive points into.
 */
export function extensionRoutes(deps: ExtensionRouteDeps, base: (slug: string) => string): ExtensionRoute[] {
  const { config, db } = deps;
  const service = new ExtensionService(db, config.extensions, {
    allowPrivate: config.webhooks.allowPrivate,
    ca: deps.outboundCa,
  });
  const served = async (res: Response, doc: ExtensionDoc) => {
    const address = `${config.publicUrl}${base(bucketOf(res).slug)}/${doc._id.toHexString()}`;
    return extensionJson(doc, await service.servedParams(doc), address);
  };
  const install: RequestHandler = async (req, res) => {
    const bucket = bucketOf(res);
    const actor = actorOf(res);
    let doc: ExtensionDoc;
    if (req.file) {
      const { title, image_url, font_awesome_class } = formFields(req.body);
      doc = await service.installZip(bucket, actor, req.file, { title, image_url, font_awesome_class });
    } else {
      const body: unknown = req.body;
      assertValid('ExtensionCreate', body, 'body');
      const { title, url, zip_url, image_url, font_awesome_class } = body;
      const extra = { image_url, font_awesome_class };
      if (zip_url !== undefined && url !== undefined) {
        throw new BadRequestError('Invalid body: send either zip_url, or title and url, not both', 'invalid_body');
      } else if (zip_url !== undefined) {
        doc = await service.installFromZipUrl(bucket, actor, zip_url, { ...extra, title });
      } else if (url !== undefined && title !== undefined) {
        doc = await service.installFromUrl(bucket, actor, title, url, extra);
      } else {
        throw new BadRequestError(
          'Invalid body: send a multipart form with the archive in the file field zip, or JSON with zip_url, or JSON with title and url' +
            (url !== undefined ? ' (title is required with url)' : ''),
          'invalid_body',
        );
      }
    }
    sendJson(res, 200, { extension: await served(res, doc) });
  };
  return [
    {
      method: 'get',
      sub: '',
      access: accountOnly(readAccess('extensions'), requireExtensionReader),
      handlers: [
        async (_req, res) => {
          const docs = await listExtensions(db, bucketOf(res));
          sendJson(res, 200, { extensions: await Promise.all(docs.map((d) => served(res, d))) });
        },
      ],
    },
    {
      method: 'post',
      sub: '',
      access: accountOnly(writeAccess('extensions'), requireExtensionAdmin),
      handlers: [extensionBody(config.extensions.zipMaxBytes, config.jsonBodyLimit), install],
    },
    {
      method: 'put',
      sub: '/:extension_id',
      access: accountOnly(writeAccess('extensions'), requireExtensionAdmin),
      handlers: [
        jsonBody(config.jsonBodyLimit),
        async (req, res) => {
          const body: unknown = req.body;
          assertValid('ExtensionEdit', body, 'body');
          const bucket = bucketOf(res);
          const doc = await service.edit(bucket, await findExtension(db, bucket, idOf(req.params)), body);
          sendJson(res, 200, {
            message: `Extension '${doc.title}' edited successfully.`,
            extension: await served(res, doc),
          });
        },
      ],
    },
    {
      method: 'delete',
      sub: '/:extension_id',
      access: accountOnly(writeAccess('extensions'), requireExtensionAdmin),
      handlers: [
        async (req, res) => {
          await deleteExtension(db, bucketOf(res), idOf(req.params));
          sendJson(res, 200, {
            message: `Extension with id '${idOf(req.params)}' deleted from bucket '${bucketOf(res).slug}'.`,
          });
        },
      ],
    },
    {
      method: 'get',
      sub: '/:extension_id/archive',
      access: accountOnly(readAccess('extensions'), requireExtensionReader),
      handlers: [archiveDownloadHandler(db)],
    },
    // Public: a frame cannot send a token. The pages are sandboxed (lib/extensions/files.ts).
    { method: 'get', sub: '/:extension_id/files/*path', access: PUBLIC, handlers: [extensionFileHandler(db)] },
  ];
}
