import type { Response } from 'express';
import { prettyOf } from './read-params.js';

/** The one way responses are written, so `pretty=true` applies to every JSON body, errors included. */
export function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body, null, prettyOf(res) ? 2 : undefined);
  res.status(status).type('application/json').send(text);
}
