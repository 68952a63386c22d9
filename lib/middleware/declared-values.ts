import type { Request } from 'express';
import type { Source } from '../routes/access.js';
import { isPlainObject } from '../util/values.js';

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
  // The first field that is not null or absent, as the handlers read them (`body.id ?? body._id`):
  // an empty `id` is what the handler takes (and then names the Object by slug), so it is taken here too.
  const field = source.body.find((f) => body[f] !== undefined && body[f] !== null);
  return field === undefined ? undefined : body[field];
}
