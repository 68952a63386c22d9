import assert from 'node:assert/strict';
import request from 'supertest';
import { BucketSuite } from '../support/bucket-suite.js';
import { listening, openSse, type SseStream } from '../support/sse-client.js';

const FEED_ENV = {
  REALTIME_POLL_MS: '20',
  REALTIME_SETTLE_MS: '1000',
  REALTIME_STREAMS_PER_BUCKET: '2',
  REALTIME_STREAMS_PER_ADDRESS: '3',
};

describe('realtime change feed: tickets, caps and metrics', () => {
  const suite = new BucketSuite(
    'tickets',
    async (api) => {
      await api.post('/object-types', { title: 'Posts' }).expect(200);
    },
    FEED_ENV,
  );
  let server: Awaited<ReturnType<typeof listening>>;
  const open: SseStream[] = [];
  before(async () => {
    server = await listening(suite.harness.app);
  });
  afterEach(async () => {
    for (const s of open.splice(0)) s.close();
    // A closed stream gives its place back once the server sees the close.
    while ((await openStreams()) > 0) await tick();
  });
  after(async () => {
    await server.close();
  });

  const tick = () => new Promise((r) => setImmediate(r));
  async function openStreams(): Promise<number> {
    const text = (await request(suite.harness.app).get('/metrics').expect(200)).text;
    return Number(/^content_api_event_streams_open (\d+)$/m.exec(text)?.[1]);
  }
  async function stream(slug: string, query: string, headers: Record<string, string> = {}) {
    const s = await openSse(`${server.url}/v3/buckets/${slug}/events${query}`, headers);
    open.push(s);
    return s;
  }
  const writer = () => ({ Authorization: `Bearer ${suite.keys.write_key ?? ''}` });
  const issue = async () =>
    (await request(suite.harness.app).post('/v3/buckets/tickets/events/tickets').set(writer()).expect(200)).body as {
      ticket: string;
      expires_at: string;
    };

  it('issues a ticket to the write key only, good for one stream that sees drafts', async () => {
    await request(suite.harness.app)
      .post('/v3/buckets/tickets/events/tickets')
      .query({ read_key: suite.keys.read_key })
      .expect(401);
    const { ticket, expires_at } = await issue();
    assert.ok(Date.parse(expires_at) > Date.now() - 1000, expires_at);
    const s = await stream('tickets', `?ticket=${ticket}`);
    assert.equal(s.status, 200);
    const draft = String(
      (await suite.api.post('/objects', { title: 'Draft', type: 'posts', status: 'draft' }).expect(200)).body.object.id,
    );
    const got = await s.next();
    assert.equal(got.event, 'object.created');
    assert.equal((JSON.parse(got.data) as { data: { id: string } }).data.id, draft);

    const again = await stream('tickets', `?ticket=${ticket}`);
    assert.equal(again.status, 401);
    assert.match(again.body, /expired, was used, or was never issued/);
  });

  it('refuses an expired ticket 401', async () => {
    const { ticket } = await issue();
    // Its expiry passed, as the clock would make it: the stored time is what the check reads.
    await suite.harness.db
      .collection('stream_tickets')
      .updateMany({}, { $set: { expires_at: new Date(Date.now() - 1000) } });
    const s = await stream('tickets', `?ticket=${ticket}`);
    assert.equal(s.status, 401);
    assert.match(s.body, /"code":"unauthorized"/);
  });

  it('caps streams per Bucket and per client address: 429 with Retry-After; /metrics counts them and what they sent', async () => {
    const other = await suite.harness.bucket('other');
    const first = await stream('tickets', '', writer());
    await stream('tickets', '', writer());
    assert.equal(await openStreams(), 2);
    const third = await stream('tickets', '', writer());
    assert.equal(third.status, 429);
    assert.equal(third.headers['retry-after'], '10');
    assert.match(third.body, /bucket 'tickets' has 2 open event streams/);

    const otherAuth = { Authorization: `Bearer ${other.write_key ?? ''}` };
    assert.equal((await stream('other', '', otherAuth)).status, 200);
    const fourth = await stream('other', '', otherAuth);
    assert.equal(fourth.status, 429);
    assert.match(fourth.body, /client address has 3 open event streams/);

    const before = /^content_api_event_stream_messages_total (\d+)$/m.exec(
      (await request(suite.harness.app).get('/metrics').expect(200)).text,
    );
    await suite.api.post('/objects', { title: 'Counted', type: 'posts' }).expect(200);
    await first.next();
    const after = /^content_api_event_stream_messages_total (\d+)$/m.exec(
      (await request(suite.harness.app).get('/metrics').expect(200)).text,
    );
    assert.ok(Number(after?.[1]) >= Number(before?.[1]) + 1, `${String(before?.[1])} -> ${String(after?.[1])}`);
  });
});
