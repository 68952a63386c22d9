import assert from 'node:assert/strict';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { objectsCollection } from '../../lib/db/collections.js';
import { AppMetrics } from '../../lib/observability/metrics.js';
import { metricsApp } from '../../lib/observability/metrics-endpoint.js';
import type { IssuedKeys } from '../../lib/buckets/buckets.js';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      assert.ok(m, `not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]),
      );
      return { name: m[1]!, labels, value: Number(m[3]) };
    });
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
function valueOf(all: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  assert.ok(found.length <= 1, `${found.length} samples of ${name} ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe('GET /metrics', () => {
  let h: Harness;
  let keys: IssuedKeys;
  let metrics: AppMetrics;
  let stopWatching: () => void;
  let app: Harness['app'];
  let objectId: string;
  const scrape = async (target = app) => {
    const res = await request(target).get('/metrics').expect(200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    return samples(res.text);
  };

  before(async () => {
    h = await freshHarness();
    keys = await h.bucket('metered');
    metrics = new AppMetrics();
    stopWatching = metrics.watchClient(h.client);
    app = createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m), metrics });
    const api = bucketClient(app, keys);
    await api.post('/object-types', { title: 'Posts', slug: 'posts' }).expect(200);
    objectId = (await api.post('/objects', { title: 'Now', type: 'posts' }).expect(200)).body.object.id;
  });
  after(() => {
    stopWatching();
    assert.deepEqual(h.errors, []);
  });

  it('has a request duration histogram by method, route pattern and status, never by raw path', async () => {
    const api = bucketClient(app, keys);
    await api.get(`/objects/${objectId}`).expect(200);
    await api.get(`/objects/${objectId}`).expect(200);
    await api.get('/objects/000000000000000000000000').expect(404);
    const res = await request(app).get('/metrics').expect(200);
    const all = samples(res.text);
    const one = { method: 'GET', route: '/v3/buckets/:slug/objects/:object_id' };
    assert.equal(valueOf(all, 'http_request_duration_seconds_count', { ...one, status: '200' }), 2);
    assert.equal(valueOf(all, 'http_request_duration_seconds_count', { ...one, status: '404' }), 1);
    assert.equal(
      valueOf(all, 'http_request_duration_seconds_count', {
        route: '/v3/buckets/:slug/objects',
        status: '200',
        method: 'POST',
      }),
      1,
    );
    const inf = valueOf(all, 'http_request_duration_seconds_bucket', { ...one, status: '200', le: '+Inf' });
    assert.equal(inf, 2);
    assert.ok(!res.text.includes(objectId), 'no series per Object id');
    assert.ok(!res.text.includes('metered'), 'no series per Bucket');
  });

  it('labels a wildcard route by its pattern alone: random paths under it add no series', async () => {
    const routes = async () =>
      new Set(
        (await scrape()).filter((s) => s.name === 'http_request_duration_seconds_count').map((s) => s.labels.route),
      );
    const random = () => Math.random().toString(36).slice(2, 10);
    for (let i = 0; i < 20; i++) {
      await request(app).get(
        `/v2/buckets/${random()}/extensions/${'a'.repeat(24)}/files/${random()}/${random()}/${random()}.js`,
      );
      await request(app).get(`/v1/${random()}/extensions/${'b'.repeat(24)}/files/${random()}.html`);
    }
    const labels = [...(await routes())];
    const pattern = (v: string) => `${v}/extensions/:extension_id/files/*path`;
    assert.deepEqual(
      labels.filter((r) => r?.includes('/extensions/')),
      [pattern('/v2/buckets/:slug'), pattern('/v1/:slug')],
    );
  });

  it('counts read-cache hits and misses', async () => {
    const before = await scrape();
    const api = bucketClient(app, keys);
    await api.get('/objects?props=id,title').expect(200).expect('X-Cache', 'MISS');
    await api.get('/objects?props=id,title').expect(200).expect('X-Cache', 'HIT');
    await api.get('/objects?props=id,title').expect(200).expect('X-Cache', 'HIT');
    const after = await scrape();
    const delta = (name: string) => (valueOf(after, name) ?? 0) - (valueOf(before, name) ?? 0);
    assert.equal(delta('content_api_read_cache_hits_total'), 2);
    assert.equal(delta('content_api_read_cache_misses_total'), 1);
    assert.ok((valueOf(after, 'content_api_read_cache_bytes') ?? 0) > 0);
  });

  it('reports the scheduler’s and the webhook outbox’s backlog', async () => {
    const api = bucketClient(app, keys);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    await api.post('/objects', { title: 'Later', type: 'posts', publish_at: later }).expect(200);
    const due = (await api.post('/objects', { title: 'Overdue', type: 'posts', publish_at: later }).expect(200)).body
      .object.id;
    // As if its time had come while no scheduler ran.
    await objectsCollection(h.db).updateMany(
      { title: 'Overdue' },
      { $set: { publish_at: new Date(Date.now() - 1000) } },
    );
    assert.ok(due);
    await api.post('/webhooks', { endpoint: 'https://hooks.example.com/in', events: ['object.created'] }).expect(200);
    await api.post('/objects', { title: 'Hooked', type: 'posts' }).expect(200);
    const all = await scrape();
    assert.equal(valueOf(all, 'content_api_scheduled_objects', { job: 'publish', state: 'waiting' }), 1);
    assert.equal(valueOf(all, 'content_api_scheduled_objects', { job: 'publish', state: 'due' }), 1);
    assert.equal(valueOf(all, 'content_api_scheduled_objects', { job: 'unpublish', state: 'due' }), 0);
    assert.equal(valueOf(all, 'content_api_webhook_outbox_deliveries', { state: 'due' }), 1);
    assert.equal(valueOf(all, 'content_api_webhook_outbox_deliveries', { state: 'waiting' }), 0);
  });

  it('has the event-loop lag and process metrics', async () => {
    const all = await scrape();
    const p99 = valueOf(all, 'nodejs_eventloop_lag_p99_seconds');
    assert.ok(p99 !== undefined && p99 > 0 && p99 < 5, `lag p99 ${p99}`);
    assert.ok(valueOf(all, 'nodejs_eventloop_lag_seconds') !== undefined);
    assert.ok((valueOf(all, 'process_resident_memory_bytes') ?? valueOf(all, 'nodejs_heap_size_used_bytes') ?? 0) > 0);
  });

  it('counts engine round trips from the connection pool, and commands by name from command events', async () => {
    const before = await scrape();
    const trips = (all: Sample[]) => valueOf(all, 'content_api_engine_round_trip_seconds_count') ?? 0;
    const bulkWrites = (all: Sample[]) =>
      valueOf(all, 'content_api_engine_command_seconds_count', { command: 'bulkWrite', outcome: 'ok' }) ?? 0;
    await bucketClient(app, keys).post('/objects', { title: 'One more', type: 'posts' }).expect(200);
    const after = await scrape();
    // A create reads its Bucket, takes its plan slot, and writes the Object with its follow-ups in one bulkWrite.
    assert.ok(trips(after) - trips(before) >= 3, `round trips ${trips(before)} → ${trips(after)}`);
    // The test client is made with monitorCommands, as the server's is with METRICS_ENGINE_COMMANDS=true.
    assert.ok(bulkWrites(after) > bulkWrites(before), `bulkWrites ${bulkWrites(before)} → ${bulkWrites(after)}`);
    assert.ok(
      (valueOf(after, 'content_api_engine_command_seconds_count', { command: 'find', outcome: 'ok' }) ?? 0) > 0,
    );
  });

  it('keeps each app’s metrics to itself (a registry per app)', async () => {
    const other = createApp({ config: h.config, db: h.db, log: (m) => h.errors.push(m) });
    await bucketClient(other, keys).get('/object-types').expect(200);
    const mine = await scrape();
    const theirs = await scrape(other);
    const types = { method: 'GET', route: '/v3/buckets/:slug/object-types', status: '200' };
    assert.equal(valueOf(theirs, 'http_request_duration_seconds_count', types), 1);
    assert.equal(valueOf(mine, 'http_request_duration_seconds_count', types), undefined);
  });
});

describe('GET /metrics behind METRICS_TOKEN or on METRICS_PORT', () => {
  let h: Harness;
  before(async () => {
    h = await freshHarness({ METRICS_TOKEN: 'scrape-me' }, 'content_api_metrics_token');
  });

  it('answers 401 with the error body without the token, and the metrics with it', async () => {
    const none = await request(h.app).get('/metrics').expect(401);
    assert.equal(none.body.code, 'unauthorized');
    assert.equal(none.body.status, 401);
    assert.match(none.body.message, /Bearer <METRICS_TOKEN>/);
    await request(h.app).get('/metrics').set('Authorization', 'Bearer wrong').expect(401);
    const ok = await request(h.app).get('/metrics').set('Authorization', 'Bearer scrape-me').expect(200);
    assert.match(ok.text, /# TYPE http_request_duration_seconds histogram/);
    assert.equal(ok.headers['cache-control'], 'no-store');
  });

  it('with METRICS_PORT set, is served by the metrics app only', async () => {
    const metrics = new AppMetrics();
    const config = { ...h.config, observability: { ...h.config.observability, metricsPort: 9464, metricsToken: null } };
    const app = createApp({ config, db: h.db, log: (m) => h.errors.push(m), metrics });
    const res = await request(app).get('/metrics').expect(404);
    assert.equal(res.body.code, 'route_not_found');
    await request(app).get('/v3/status').expect(200);
    const side = metricsApp(metrics, null, (m) => h.errors.push(m));
    const scraped = await request(side).get('/metrics').expect(200);
    assert.equal(
      valueOf(samples(scraped.text), 'http_request_duration_seconds_count', { route: '/v3/status', status: '200' }),
      1,
    );
    await request(side).get('/v3/status').expect(404);
    assert.deepEqual(h.errors, []);
  });
});
