import type { Request } from 'express';
import { singleParam } from '../http/params.js';
import type { StatusFilter } from '../services/object-views.js';
import { parseListParams } from './cursor.js';
import { parseProps } from './props.js';

export interface SingleReadParams {
  status: StatusFilter;
  props: string[] | null;
  depth: number;
  useCache: boolean;
}

const SHARED = ['status', 'depth', 'useCache', 'use_cache'];

/** Parameters of GET one Object: the list parameters it shares, read by the same parser, plus props. */
export function parseSingleReadParams(req: Request): SingleReadParams {
  const query = req.query as Record<string, unknown>;
  const { status, depth, useCache } = parseListParams(
    Object.fromEntries(SHARED.filter((k) => k in query).map((k) => [k, query[k]])),
  );
  return { status, depth, useCache, props: parseProps(singleParam(req, 'props')) };
}
