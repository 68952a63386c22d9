import type { Request } from 'express';
import { BadRequestError } from '../errors/http-errors.js';

/** A query-string value as one string; repeated parameters are an error, not an array. */
export function singleParam(req: Request, name: string): string | undefined {
  const raw = req.query[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string')
    throw new BadRequestError(`Query parameter "${name}" must be given once as a plain value`, 'invalid_parameter');
  return raw;
}

export function booleanParam(req: Request, name: string, fallback: boolean): boolean {
  const raw = singleParam(req, name);
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new BadRequestError(`Query parameter "${name}" must be true or false, got "${raw}"`, 'invalid_parameter');
}
