import request from 'supertest';
import type { Express } from 'express';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { bucketClient } from './client.js';

/** bucketClient whose reads send the write key too: every webhook route takes only the write key. */
export function webhookClient(app: Express, keys: IssuedKeys) {
  const api = bucketClient(app, keys);
  return {
    ...api,
    get: (path: string) =>
      request(app)
        .get(`/v3/buckets/${keys.slug}${path}`)
        .set('Authorization', `Bearer ${keys.write_key ?? ''}`),
  };
}
