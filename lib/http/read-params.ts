import type { RequestHandler, Response } from 'express';
import { BadRequestError } from '../errors/http-errors.js';
import { parseReadParams, type ParamName, type Params, type ParamSet, type ParamValues } from '../query/read-params.js';

interface Parsed {
  set: ParamSet<ParamName>;
  values: Readonly<Partial<ParamValues>>;
}

/**
 * Reads the parameters `set` declares, once, into a frozen object for everything after it; every
 * problem is reported in one 400. Runs first on a route, so even the Bucket's 404 honours `pretty`.
 */
export function readParamsOnce(set: ParamSet<ParamName>): RequestHandler {
  return (req, res, next) => {
    const { values, problems } = parseReadParams(req.query, set);
    const parsed: Parsed = { set, values };
    res.locals.readParams = parsed;
    if (problems.length > 0) {
      throw new BadRequestError(`Invalid parameters: ${problems.join('; ')}`, 'invalid_parameter');
    }
    next();
  };
}

function parsedOf(res: Response): Parsed | undefined {
  return res.locals.readParams as Parsed | undefined;
}

/** The route's parameters, typed by its declaration; reading another route's set is a programming error. */
export function readParams<K extends ParamName>(res: Response, set: ParamSet<K>): Params<K> {
  const parsed = parsedOf(res);
  if (parsed?.set !== set) throw new Error('readParams: this route did not read these parameters');
  return parsed.values as Params<K>;
}

/** One parameter for code shared by several routes (authentication); the route must declare it. */
export function paramOf<N extends ParamName>(res: Response, name: N): ParamValues[N] {
  const parsed = parsedOf(res);
  if (!parsed?.set.names.includes(name)) throw new Error(`paramOf: the route does not take ${name}`);
  return parsed.values[name] as ParamValues[N];
}

/** Every parameter the route read, for cache keys: equal values give equal keys. */
export function allParams(res: Response): Readonly<Partial<ParamValues>> {
  const parsed = parsedOf(res);
  if (!parsed) throw new Error('allParams: no parameters were read for this route');
  return parsed.values;
}

/** The parameters the route takes, so answers can advise only those. */
export function declaredParams(res: Response): readonly ParamName[] {
  return parsedOf(res)?.set.names ?? [];
}

/** Whether JSON bodies are indented: false before parameters are read or when `pretty` was invalid. */
export function prettyOf(res: Response): boolean {
  return parsedOf(res)?.values.pretty ?? false;
}
