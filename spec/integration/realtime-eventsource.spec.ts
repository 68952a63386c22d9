import assert from 'node:assert/strict';
import { EventSource, type EventSourceFetchInit } from 'eventsource';
import { BucketSuite } from '../support/bucket-suite.js';
import { listening } from '../support/sse-client.js';

interface Received {
  id: string;
  objectId: string;
}

/**
 * The `eventsource` package as any Node client uses it, unchanged: its own parsing, its own
 * reconnection with Last-Event-ID. Only its fetch is wrapped (an option it offers) so the test
 * decides when the reconnection goes out, and sees the header it sends.
 */
describe('realtime change feed with the eventsource client', () => {
  const suite = new BucketSuite(
    'es',
    async (api) => {
      await api.post('/object-types', { title: 'Posts' }).expect(200);
    },
    { REALTIME_POLL_MS: '20', REALTIME_SETTLE_MS: '1000', REALTIME_RETRY_MS: '50' },
  );

  it('receives events, and after a dropped connection resumes with Last-Event-ID: the missed events once, in order', async () => {
    const server = await listening(suite.harness.app);
    const sentIds: (string | null)[] = [];
    let release: () => void = () => undefined;
    const reconnectAllowed = new Promise<void>((resolve) => {
      release = resolve;
    });
    const url = `${server.url}/v3/buckets/es/events?types=posts&read_key=${encodeURIComponent(suite.keys.read_key ?? '')}`;
    const es = new EventSource(url, {
      fetch: async (input: string | URL, init: EventSourceFetchInit) => {
        sentIds.push(init.headers['Last-Event-ID'] ?? null);
        if (sentIds.length > 1) await reconnectAllowed;
        return fetch(input, init);
      },
    });
    const queue: Received[] = [];
    const waiting: ((r: Received) => void)[] = [];
    es.addEventListener('object.created', (e) => {
      const body = JSON.parse(e.data) as { data: { id: string } };
      const got = { id: e.lastEventId, objectId: body.data.id };
      const w = waiting.shift();
      if (w) w(got);
      else queue.push(got);
    });
    const next = () => queue.shift() ?? new Promise<Received>((r) => waiting.push(r));
    const createPost = async (title: string) =>
      String((await suite.api.post('/objects', { title, type: 'posts' }).expect(200)).body.object.id);
    try {
      await new Promise<void>((resolve, reject) => {
        es.onopen = () => {
          resolve();
        };
        es.onerror = (e) => {
          if (es.readyState === EventSource.CLOSED) reject(new Error(`closed: ${e.message ?? ''}`));
        };
      });
      const first = await createPost('First');
      const got = await next();
      assert.equal(got.objectId, first);

      server.drop();
      const missed = [await createPost('Missed 1'), await createPost('Missed 2')];
      await suite.harness.settled();
      release();
      const resumed = [await next(), await next()];
      assert.deepEqual(
        resumed.map((r) => r.objectId),
        missed,
      );
      assert.equal(sentIds[0], null, 'the first connection resumes from nothing');
      assert.equal(sentIds[1], got.id, 'the reconnection names the last id received');
      const live = await createPost('Live');
      assert.equal((await next()).objectId, live);
      assert.equal(queue.length, 0, 'nothing twice');
    } finally {
      es.close();
      await server.close();
    }
  });
});
