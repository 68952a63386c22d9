import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { DbHealth } from '../../lib/db/db-health.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { testEngine } from '../support/test-engine.js';

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

describe('GET /v3/status as a readiness check over a live client', () => {
  it('answers 200 while the client reaches the database and 503 with the error body once it cannot', async () => {
    const h = await freshHarness();
    const client = new MongoClient(testEngine().uri, { serverSelectionTimeoutMS: 500 });
    // Attached before connect(), as connectDatabase does, so it sees the first topology.
    const health = new DbHealth(client);
    await client.connect();
    const app = createApp({ config: h.config, db: client.db('content_api_test'), health, log: () => undefined });
    const up = await request(app).get('/v3/status').expect(200);
    assert.equal(up.body.status, 'ok');
    await client.close();
    const down = await request(app).get('/v3/status').expect(503);
    assert.deepEqual(Object.keys(down.body as object).sort(), ['code', 'message', 'status']);
    assert.equal(down.body.status, 503);
    assert.equal(down.body.code, 'service_unavailable');
    assert.equal(down.headers['retry-after'], '5');
  });
});
