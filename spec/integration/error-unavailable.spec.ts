import assert from 'node:assert/strict';
import net from 'node:net';
import express from 'express';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { loadConfig } from '../../lib/config.js';
import { errorHandler } from '../../lib/http/error-handler.js';

/** A local port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return address.port;
}

describe('when the database is unreachable', () => {
  let client: MongoClient;
  let port: number;
  const logged: string[] = [];
  let app: express.Express;
  before(async () => {
    port = await closedPort();
    // Never connected explicitly: each operation tries to select a server and gives up quickly.
    client = new MongoClient(`mongodb://127.0.0.1:${port}/?serverSelectionTimeoutMS=250`);
    app = createApp({ config: loadConfig({}), db: client.db('content_api_test'), log: (m) => logged.push(m) });
  });
  after(async () => {
    await client.close();
  });

  const routes: [string, (a: express.Express) => request.Test][] = [
    ['GET objects', (a) => request(a).get('/v3/buckets/alpha/objects?read_key=k')],
    ['POST objects', (a) => request(a).post('/v3/buckets/alpha/objects').send({ title: 'x', type: 'posts' })],
    ['GET a public file', (a) => request(a).get('/files/alpha/photo.png')],
  ];
  for (const [name, send] of routes) {
    it(`${name} answers 503 service_unavailable with Retry-After and nothing of the driver`, async () => {
      const before = logged.length;
      const res = await send(app)
        .expect(503)
        .expect('content-type', /application\/json/);
      assert.equal(res.headers['retry-after'], '5');
      assert.deepEqual(res.body, {
        status: 503,
        code: 'service_unavailable',
        message: 'The database is unreachable; retry in 5 seconds',
      });
      assert.ok(!res.text.includes(String(port)) && !/ECONNREFUSED|Mongo|127\.0\.0\.1/.test(res.text), res.text);
      assert.equal(logged.length, before + 1, 'the failure is logged once for operators');
      assert.match(logged.at(-1) ?? '', /^503 on .*: Mongo(ServerSelection|TopologyClosed)Error/);
    });
  }
});

describe('an unexpected error', () => {
  it('answers 500 internal_error with a generic message and logs the stack', async () => {
    const logged: string[] = [];
    const app = express();
    app.get('/boom', () => {
      throw new TypeError("Cannot read properties of undefined (reading 'secret_field')");
    });
    app.use(errorHandler((m) => logged.push(m)));
    const res = await request(app).get('/boom').expect(500);
    assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message', 'status']);
    assert.equal(res.body.code, 'internal_error');
    assert.match(res.body.message, /contact support/);
    assert.ok(!res.text.includes('secret_field'), res.text);
    assert.equal(logged.length, 1);
    assert.match(logged[0] ?? '', /500 on GET \/boom: TypeError: .*secret_field/);
  });
});
