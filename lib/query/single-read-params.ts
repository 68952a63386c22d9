import type { Request } from 'express';
import { BadRequestError, ValidationErrors } from '../errors/http-errors.js';
import { booleanParam, singleParam } from '../http/params.js';
import type { StatusFilter } from '../services/object-views.js';
import { parseProps } from './props.js';

export interface SingleReadParams {
  status: StatusFilter;
  props: string[] | null;
  depth: number;
  useCache: boolean;
}

/** Parameters of GET one Object; every bad value is reported in one 400. */
export function parseSingleReadParams(req: Request): SingleReadParams {
  const problems = new ValidationErrors();
  const status = singleParam(req, 'status') ?? 'published';
  if (!['published', 'draft', 'any'].includes(status)) problems.add(`status must be published, draft or any, got "${status}"`);
  const rawDepth = singleParam(req, 'depth') ?? '0';
  const depth = Number(rawDepth);
  if (!/^\d+$/.test(rawDepth) || depth > 3) problems.add(`depth must be an integer from 0 to 3, got "${rawDepth}"`);
  let props: string[] | null = null;
  let useCache = true;
  try {
    props = parseProps(singleParam(req, 'props'));
    useCache = booleanParam(req, 'useCache', booleanParam(req, 'use_cache', true));
  } catch (err) {
    if (!(err instanceof BadRequestError)) throw err;
    problems.add(err.message);
  }
  problems.throwIfAny('Invalid parameters');
  return { status: status as StatusFilter, props, depth, useCache };
}
