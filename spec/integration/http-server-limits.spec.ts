import assert from 'node:assert/strict';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { HttpServerSettings } from '../../lib/config.js';
import { createHttpServer } from '../../lib/http/http-server.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { openRaw, type RawAnswer } from '../support/raw-http.js';

interface Running {
  server: http.Server;
  port: number;
  /** Resolves once the server has seen `count` connections in all. */
  connectionsSeen: (count: number) => Promise<void>;
}

/** Small limits, so that each timeout shows within a fraction of a second. */
const FAST: Partial<HttpServerSettings> = { headersTimeoutMs: 300, requestTimeoutMs: 2000, idleTimeoutMs: 300 };

function assertErrorBody(answer: RawAnswer, status: number, code: string): string {
  assert.equal(answer.status, status, JSON.stringify(answer));
  assert.match(answer.headers['content-type'] ?? '', /^application\/json/);
  const body = answer.body as { status: number; code: string; message: string };
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'status']);
  assert.equal(body.status, status);
  assert.equal(body.code, code);
  return body.message;
}

describe('the HTTP server (real connections)', () => {
  let h: Harness;
  const running: Running[] = [];
  before(async () => {
    h = await freshHarness();
    await h.bucket('open', { kind: 'none' }, { kind: 'none' });
    await request(h.app).post('/v3/buckets/open/object-types').send({ title: 'Posts' }).expect(200);
  });
  afterEach(() => {
    for (const { server } of running.splice(0)) {
      server.close();
      server.closeAllConnections();
    }
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  async function start(overrides: Partial<HttpServerSettings> = {}): Promise<Running> {
    const server = createHttpServer(h.app, { ...h.config.http, ...overrides });
    let seen = 0;
    const waiting: { count: number; resolve: () => void }[] = [];
    server.on('connection', () => {
      seen++;
      for (const w of waiting.filter((w) => w.count <= seen)) w.resolve();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const r: Running = {
      server,
      port: (server.address() as AddressInfo).port,
      connectionsSeen: (count) =>
        seen >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    };
    running.push(r);
    return r;
  }

  it('answers ordinary requests, several on one keep-alive connection', async () => {
    const { port } = await start(FAST);
    const agent = request.agent(`http://127.0.0.1:${port}`);
    for (let i = 0; i < 3; i++) {
      const res = await agent.get('/v3/status').expect(200);
      assert.equal(res.body.api_version, '3.0.0');
    }
    await agent.post('/v3/buckets/open/objects').send({ title: 'Kept', type: 'posts' }).expect(200);
  });

  it('answers a URL over 16 KB with 431 and the error body', async () => {
    const { port } = await start();
    const answer = await openRaw(port, `GET /v3/status?x=${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: t\r\n\r\n`).closed;
    const message = assertErrorBody(answer, 431, 'headers_too_large');
    assert.match(message, /over 16384 bytes/);
    assert.equal(answer.headers.connection, 'close');
  });

  it('answers a malformed request and an HTTP/1.1 request without Host with 400 and the error body', async () => {
    const { port } = await start();
    const garbage = await openRaw(port, 'G@T / HTTP/1.1\r\nHost: t\r\n\r\n').closed;
    assert.match(assertErrorBody(garbage, 400, 'bad_request'), /^Malformed HTTP request: /);
    const hostless = await openRaw(port, 'GET /v3/status HTTP/1.1\r\n\r\n').closed;
    assert.match(assertErrorBody(hostless, 400, 'bad_request'), /Host header/);
  });

  it('cuts a client that sends its headers slowly at the headers timeout, with 408', async () => {
    const { port } = await start(FAST);
    const slow = openRaw(port, 'GET /v3/status HTTP/1.1\r\nHost: t\r\n');
    // Each line comes well within the idle timeout: only the headers timeout can end this.
    slow.trickle('X-Slow: 1\r\n', 50);
    const answer = await slow.closed;
    assert.match(assertErrorBody(answer, 408, 'request_timeout'), /headers within 0.3 s/);
    assert.ok(answer.heldMs >= 250 && answer.heldMs < 1000, `held ${answer.heldMs} ms`);
  });

  it('cuts a connection that sends nothing at the headers timeout, with 408', async () => {
    const { port } = await start({ ...FAST, idleTimeoutMs: 2000 });
    const answer = await openRaw(port).closed;
    assertErrorBody(answer, 408, 'request_timeout');
    assert.ok(answer.heldMs >= 250 && answer.heldMs < 1000, `held ${answer.heldMs} ms`);
  });

  it('cuts a request whose body stops arriving after the idle timeout, with 408', async () => {
    const { port } = await start(FAST);
    const head =
      'POST /v3/buckets/open/objects HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n' +
      'Content-Length: 1000\r\n\r\n{"title":"';
    const answer = await openRaw(port, head).closed;
    assert.match(assertErrorBody(answer, 408, 'request_timeout'), /Nothing arrived for 0.3 s/);
    assert.ok(answer.heldMs >= 250 && answer.heldMs < 1000, `held ${answer.heldMs} ms`);
  });

  it('lets a body that arrives slowly but steadily run past the idle timeout', async () => {
    // Gaps of a tenth of the idle timeout, so a loaded machine's scheduling delays cannot add up to one.
    const { port } = await start({ ...FAST, requestTimeoutMs: 10_000, idleTimeoutMs: 500 });
    const json = JSON.stringify({ title: 'Steady', type: 'posts' });
    const steady = openRaw(
      port,
      'POST /v3/buckets/open/objects HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nConnection: close\r\n' +
        `Content-Length: ${json.length}\r\n\r\n`,
    );
    // One byte every 40 ms: over a second and a half in all, three idle timeouts, never idle for one.
    let sent = 0;
    const timer = setInterval(() => {
      steady.socket.write(json.slice(sent, ++sent));
      if (sent === json.length) clearInterval(timer);
    }, 40);
    const answer = await steady.closed;
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.ok(answer.heldMs > 1000);
  });

  it('refuses connections beyond the per-address limit at once with 429, and admits again once one closes', async () => {
    const { port, connectionsSeen } = await start({ ...FAST, headersTimeoutMs: 2000, maxConnectionsPerIp: 2 });
    const held = [openRaw(port), openRaw(port)];
    await connectionsSeen(2);
    const refused = await openRaw(port).closed;
    assert.match(assertErrorBody(refused, 429, 'rate_limited'), /at most 2/);
    assert.equal(refused.headers['retry-after'], '1');
    assert.ok(refused.heldMs < 200, `held ${refused.heldMs} ms`);

    held[0]?.socket.destroy();
    await held[0]?.closed;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const admitted = await openRaw(port, 'GET /v3/status HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n').closed;
    assert.equal(admitted.status, 200);
  });

  it('refuses connections beyond the server limit with 503 server_busy', async () => {
    const { port, connectionsSeen } = await start({
      ...FAST,
      headersTimeoutMs: 2000,
      maxConnections: 2,
      maxConnectionsPerIp: 0,
    });
    openRaw(port);
    openRaw(port);
    await connectionsSeen(2);
    const refused = await openRaw(port).closed;
    assertErrorBody(refused, 503, 'server_busy');
    assert.equal(refused.headers['retry-after'], '5');
  });
});
