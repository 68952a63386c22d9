import type { Request } from 'express';
import type { Source } from '../routes/access.js';
import { isPlainObject } from '../util/plain-object.js';

export const bodyOf = (req: Request): Record<string, unknown> => (isPlainObject(req.body) ? req.body : {});
export const queryOf = (req: Request): Record<string, unknown> => (isPlainObject(req.query) ? req.query : {});

/** The v3 `query` filter's plain `type` (or `{"$eq": type}`), if it names one. */
function filterType(req: Request): unknown {
  const raw = queryOf(req).query;
  if (typeof raw !== 'string') return undefined;
  try {
    const filter: unknown = JSON.parse(raw);
    const type = isPlainObject(filter) ? filter.type : undefined;
    return isPlainObject(type) ? type.$eq : type;
  } catch {
    return undefined;
  }
}

/** The value a route's declared source names in the request, read where the route's handler reads it. */
export function valueAt(req: Request, source: Source | undefined): unknown {
  if (source === undefined) return undefined;
  if ('param' in source) return req.params[source.param];
  if ('query' in source) return queryOf(req)[source.query];
  if ('filter' in source) return filterType(req);
  const body = bodyOf(req);
  // The first field present, as the handler reads them (v1 names an Object by `id` before `_id`).
  const field = source.body.find((f) => body[f] !== undefined && body[f] !== null && body[f] !== '');
  return field === undefined ? undefined : body[field];
}
