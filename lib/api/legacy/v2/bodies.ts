import type { RequestHandler } from 'express';
import { BadRequestError } from '../../../errors/http-errors.js';
import { isPlainObject } from '../../../util/values.js';
import { metadataOfMetafields } from '../shared/metafield-values.js';
import { keepSentDefinitions } from '../../../http/request.js';

/**
 * A v2 Object or revision body as v3 takes it: v2 clients write content as a `metafields` array
 * (their own examples do), v3 as `metadata`; everything else is the same body, checked by v3.
 */
export function v3ObjectBody(body: unknown): unknown {
  if (!isPlainObject(body) || !Object.hasOwn(body, 'metafields')) return body;
  const { metafields, ...rest } = body;
  if (Object.hasOwn(rest, 'metadata')) {
    throw new BadRequestError('Send the content as metadata or as metafields, not both', 'invalid_body');
  }
  return { ...rest, metadata: metadataOfMetafields(metafields, 'body.metafields') };
}

/** Just before a v3 write handler: the v2 body in v3's terms; its entries may define the Object's own Metafields. */
export const v2ObjectBody: RequestHandler = (req, res, next) => {
  const sent: unknown = req.body;
  req.body = v3ObjectBody(sent);
  if (isPlainObject(sent) && Array.isArray(sent.metafields)) keepSentDefinitions(res, sent.metafields);
  next();
};
