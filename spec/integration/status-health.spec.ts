import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { DbHealth } from '../../lib/db/db-health.js';
import { freshHarness, type Harness } from '../support/harness.js';

describe('GET /v3/status and database health', () => {
  let h: Harness;
  before(async () => {
    h = await freshHarness();
  });

  it('answers 503 with Retry-After while the database is unreachable, 200 while it is up', async () => {
    // A client of a closed port never sees a writable server, so its health stays down.
    const deadClient = new MongoClient('mongodb://127.0.0.1:1', { serverSelectionTimeoutMS: 300 });
    const health = new DbHealth(deadClient);
    const down = createApp({ config: h.config, db: h.db, health, log: () => undefined });
    const res = await request(down).get('/v3/status').expect(503);
    assert.equal(res.body.code, 'service_unavailable');
    assert.equal(res.headers['retry-after'], '5');
    await deadClient.close();
    await request(h.app).get('/v3/status').expect(200);
  });
});
