import type { RequestHandler } from 'express';
import { booleanParam } from '../http/params.js';

/** Parameters every v3 route takes are checked once, before any route, so none can slip through. */
export const checkCommonParams: RequestHandler = (req, _res, next) => {
  booleanParam(req, 'pretty', false);
  next();
};
