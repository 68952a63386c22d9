import type { Request, Response } from 'express';
import { booleanParam } from './params.js';

function wantsPretty(req: Request): boolean {
  try {
    return booleanParam(req, 'pretty', false);
  } catch {
    // An invalid pretty value is reported by the route's own validation; the error body itself stays compact.
    return false;
  }
}

/** The one way responses are written, so `pretty=true` applies to every JSON body, errors included. */
export function sendJson(req: Request, res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, wantsPretty(req) ? 2 : undefined);
  res.status(status).type('application/json').send(text);
}
