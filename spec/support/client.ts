import request from 'supertest';
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';

/** A thin supertest wrapper that sends a Bucket's keys the way real clients do. */
export function bucketClient(app: Express | RequestListener, keys: IssuedKeys) {
  const base = `/v3/buckets/${keys.slug}`;
  const auth = (t: request.Test) => (keys.write_key ? t.set('Authorization', `Bearer ${keys.write_key}`) : t);
  const withRead = (path: string) =>
    keys.read_key ? `${path}${path.includes('?') ? '&' : '?'}read_key=${encodeURIComponent(keys.read_key)}` : path;
  return {
    get: (path: string) => request(app).get(withRead(base + path)),
    post: (path: string, body: unknown) => auth(request(app).post(base + path)).send(body as object),
    patch: (path: string, body: unknown) => auth(request(app).patch(base + path)).send(body as object),
    delete: (path: string) => auth(request(app).delete(base + path)),
  };
}
