import express, { type Express, type RequestHandler } from 'express';
import { UnauthorizedError } from '../errors/http-errors.js';
import { errorHandler } from '../http/error-handler.js';
import { plainNotFound } from '../http/route-not-found.js';
import { bearerKey } from '../http/request.js';
import { hashKey, keyMatches } from '../http/request.js';
import type { AppMetrics } from './metrics.js';

/** GET /metrics: the Prometheus exposition; with a token, only for `Authorization: Bearer <token>`. */
export function metricsEndpoint(metrics: AppMetrics, token: string | null): RequestHandler {
  const tokenHash = token === null ? null : hashKey(token);
  return async (req, res) => {
    if (tokenHash !== null && !keyMatches(bearerKey(req), tokenHash)) {
      throw new UnauthorizedError('GET /metrics requires Authorization: Bearer <METRICS_TOKEN>');
    }
    const text = await metrics.text();
    res.set({ 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' }).send(text);
  };
}

/** The app METRICS_PORT serves: /metrics and nothing else, apart from the API and its logs. */
export function metricsApp(metrics: AppMetrics, token: string | null, log: (msg: string) => void): Express {
  const app = express();
  app.disable('x-powered-by');
  app.get('/metrics', metricsEndpoint(metrics, token));
  app.use(plainNotFound);
  app.use(errorHandler(log));
  return app;
}
