import assert from 'node:assert/strict';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { DomainEvents } from '../../lib/events/domain-events.js';
import { feedCollection } from '../../lib/events/feed-collection.js';
import { Scheduler } from '../../lib/scheduling/scheduler.js';
import { EVENT_TYPES } from '../../lib/store/event-types.js';
import { BucketSuite } from '../support/bucket-suite.js';
import { upload } from '../support/media.js';
import { listening, openSse, type SseMessage, type SseStream } from '../support/sse-client.js';

const HOUR = 3600_000;
/** Quick reads; a settle window generous for a busy machine (lib/events/feed-collection.ts). */
const FEED_ENV = { REALTIME_POLL_MS: '20', REALTIME_SETTLE_MS: '1000', REALTIME_HEARTBEAT_MS: '100' };

interface Body {
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}
const bodyOf = (m: SseMessage) => JSON.parse(m.data) as Body;

describe('realtime change feed (GET /v3/buckets/:slug/events)', () => {
  const suite = new BucketSuite(
    'feed',
    async (api) => {
      await api.post('/object-types', { title: 'Posts' }).expect(200);
      await api.post('/object-types', { title: 'Authors' }).expect(200);
    },
    FEED_ENV,
  );
  let server: Awaited<ReturnType<typeof listening>>;
  const open: SseStream[] = [];
  before(async () => {
    server = await listening(suite.harness.app);
  });
  afterEach(() => {
    for (const s of open.splice(0)) s.close();
  });
  after(async () => {
    await server.close();
  });

  const path = (query = '') => `/v3/buckets/feed/events${query}`;
  async function stream(query = '', headers: Record<string, string> = {}, url = server.url): Promise<SseStream> {
    const s = await openSse(url + path(query), headers);
    open.push(s);
    return s;
  }
  const asWriter = () => ({ Authorization: `Bearer ${suite.keys.write_key ?? ''}` });
  const readKey = () => `read_key=${encodeURIComponent(suite.keys.read_key ?? '')}`;
  const createPost = async (title: string, extra: object = {}) =>
    String((await suite.api.post('/objects', { title, type: 'posts', ...extra }).expect(200)).body.object.id);

  it('answers text/event-stream that no cache keeps nor proxy buffers, with keep-alive comments', async () => {
    const s = await stream('', asWriter());
    assert.equal(s.status, 200);
    assert.match(String(s.headers['content-type']), /^text\/event-stream/);
    assert.equal(s.headers['cache-control'], 'no-store');
    assert.equal(s.headers['x-accel-buffering'], 'no');
    assert.notEqual(s.headers['content-encoding'], 'gzip');
    const seen = s.comments();
    await s.nextComment();
    assert.ok(s.comments() > seen);
  });

  it('sends every event type with the body a webhook delivery carries, in order', async () => {
    const s = await stream('', asWriter());
    const from = suite.harness.emitted.length;
    const id = await createPost('One');
    await suite.api.patch(`/objects/${id}`, { title: 'Two' }).expect(200);
    await suite.api.patch(`/objects/${id}`, { title: 'Three', status: 'draft' }).expect(200);
    await suite.api.patch(`/objects/${id}`, { status: 'published' }).expect(200);
    const later = await createPost('Later', { unpublish_at: Date.now() + HOUR });
    await new Scheduler(suite.harness.writes, { intervalMs: 0, now: () => new Date(Date.now() + HOUR + 1000) }).tick();
    await suite.api.delete(`/objects/${later}?trigger_webhook=true`).expect(200);
    await suite.api.post('/object-types', { title: 'Pages' }).expect(200);
    await suite.api.patch('/object-types/pages', { title: 'Web pages' }).expect(200);
    await suite.api.delete('/object-types/pages?trigger_webhook=true').expect(200);
    const media = String((await upload(suite.harness.app, suite.keys, Buffer.from('hi')).expect(200)).body.media.id);
    await suite.api.patch(`/media/${media}`, { alt_text: 'hi' }).expect(200);
    await suite.api.delete(`/media/${media}?trigger_webhook=true`).expect(200);
    await suite.harness.settled();

    const emitted = suite.harness.emitted.slice(from);
    const got = await s.take(emitted.length);
    assert.deepEqual(
      got.map((m) => m.event),
      emitted.map((e) => e.type),
    );
    for (const [i, m] of got.entries()) {
      const body = bodyOf(m);
      assert.equal(body.type, emitted[i]?.type);
      assert.ok(!Number.isNaN(Date.parse(body.created_at)), body.created_at);
      assert.deepEqual(body.data, JSON.parse(JSON.stringify(emitted[i]?.data)), m.event);
    }
    const kinds = new Set(got.map((m) => m.event));
    // Every event type webhooks know (lib/store/event-types.ts) arrives on the feed too.
    for (const type of EVENT_TYPES) {
      assert.ok(kinds.has(type), `${type} arrived`);
    }
    const ids = got.map((m) => String(m.id));
    assert.deepEqual([...ids].sort(), ids, 'ids increase');
  });

  it('filters by Object type (types) and by event (events)', async () => {
    const posts = await stream('?types=posts', asWriter());
    const published = await stream('?events=object.published,object_type.created', asWriter());
    await suite.api.post('/objects', { title: 'An author', type: 'authors' }).expect(200);
    const draft = await createPost('Draft', { status: 'draft' });
    await suite.api.patch(`/objects/${draft}`, { status: 'published' }).expect(200);
    await suite.api.post('/object-types', { title: 'Tags' }).expect(200);

    const [p1, p2] = await posts.take(2);
    assert.deepEqual([p1?.event, p2?.event], ['object.created', 'object.published']);
    assert.ok([p1, p2].every((m) => m && (bodyOf(m).data as { type: string }).type === 'posts'));
    const [e1, e2] = await published.take(2);
    assert.deepEqual([e1?.event, e2?.event], ['object.published', 'object_type.created']);
  });

  it('refuses unknown events and ids it never sent, naming them (400)', async () => {
    const bad = await stream('?events=object.created,object.exploded', asWriter());
    assert.equal(bad.status, 400);
    assert.match(bad.body, /object\.exploded/);
    const badId = await stream('', { ...asWriter(), 'Last-Event-ID': 'nope' });
    assert.equal(badId.status, 400);
    assert.match(badId.body, /Last-Event-ID/);
    const noKey = await stream();
    assert.equal(noKey.status, 401);
  });

  it('a read key never receives a draft’s content: drafts are not sent, an unpublish carries ids only', async () => {
    const reader = await stream(`?${readKey()}`);
    const writer = await stream('', asWriter());
    const draft = await createPost('Secret draft', { status: 'draft', metadata: {} });
    await suite.api.patch(`/objects/${draft}`, { title: 'Still secret' }).expect(200);
    const live = await createPost('Public');
    await suite.api.patch(`/objects/${live}`, { title: 'Secret edit', status: 'draft' }).expect(200);
    await suite.api.patch(`/objects/${live}`, { title: 'Public again', status: 'published' }).expect(200);
    const later = await createPost('Going', { unpublish_at: Date.now() + HOUR });
    await new Scheduler(suite.harness.writes, { intervalMs: 0, now: () => new Date(Date.now() + HOUR + 1000) }).tick();

    // The writer sees all seven; by then the reader has had every one it will get.
    const all = await writer.take(7);
    assert.equal(all.length, 7);
    const seen = await reader.take(4);
    assert.deepEqual(
      seen.map((m) => [m.event, bodyOf(m).data.title]),
      [
        ['object.created', 'Public'],
        ['object.published', 'Public again'],
        ['object.created', 'Going'],
        ['object.unpublished', undefined],
      ],
    );
    assert.deepEqual(Object.keys(bodyOf(seen[3] as SseMessage).data).sort(), ['id', 'slug', 'type']);
    assert.equal(bodyOf(seen[3] as SseMessage).data.id, later);
    assert.ok(!reader.body.includes('secret') && !reader.body.includes('Secret'), 'no draft content');
  });

  it('resumes after a dropped connection with exactly the missed events, in order (Last-Event-ID and last_event_id)', async () => {
    const first = await stream('?types=posts', asWriter());
    await createPost('Seen');
    const [seen] = await first.take(1);
    first.close();
    const missed = [await createPost('Missed 1'), await createPost('Missed 2'), await createPost('Missed 3')];
    await suite.harness.settled();

    const resumed = await stream('?types=posts', { ...asWriter(), 'Last-Event-ID': String(seen?.id) });
    const viaQuery = await stream(`?types=posts&last_event_id=${String(seen?.id)}`, asWriter());
    const next = await createPost('Live');
    for (const s of [resumed, viaQuery]) {
      const got = await s.take(4);
      assert.deepEqual(
        got.map((m) => bodyOf(m).data.id),
        [...missed, next],
      );
    }
  });

  it('resumes across an app restart and reads events written by another app on the same database', async () => {
    const { config, db } = suite.harness;
    const appOf = () =>
      createApp({ config, db, events: new DomainEvents(config), log: (m) => suite.harness.errors.push(m) });
    const other = await listening(appOf());
    try {
      // Written through this app, read on the other: each app has its own tailer.
      const there = await stream('?types=posts', asWriter(), other.url);
      const here = await stream('?types=posts', asWriter());
      await createPost('From here');
      const id = String(
        (
          await request(other.url)
            .post('/v3/buckets/feed/objects')
            .set(asWriter())
            .send({ title: 'From there', type: 'posts' })
            .expect(200)
        ).body.object.id,
      );
      const a = await there.take(2);
      const b = await here.take(2);
      assert.deepEqual(
        a.map((m) => m.id),
        b.map((m) => m.id),
      );
      assert.equal(bodyOf(a[1] as SseMessage).data.id, id);
      there.close();

      // The other app goes away; its client comes back to a new app, after what it missed.
      await other.close();
      const missed = await createPost('While down');
      const restarted = await listening(appOf());
      try {
        const back = await stream('?types=posts', { ...asWriter(), 'Last-Event-ID': String(a[1]?.id) }, restarted.url);
        const [got] = await back.take(1);
        assert.equal(bodyOf(got as SseMessage).data.id, missed);
      } finally {
        await restarted.close();
      }
    } finally {
      await other.close();
    }
  });

  it('sends one reset past retention, then the live events', async () => {
    const stale = `${(Date.now() - 2 * 24 * HOUR).toString(16).padStart(12, '0')}-00000001-0000000000`;
    const s = await stream('?types=posts', { ...asWriter(), 'Last-Event-ID': stale });
    const reset = await s.next();
    assert.equal(reset.event, 'reset');
    assert.equal(reset.id, undefined, 'a reset moves no Last-Event-ID');
    const id = await createPost('After reset');
    const [live] = await s.take(1);
    assert.equal(bodyOf(live as SseMessage).data.id, id);
  });

  it('keeps one feed entry per event id when an event is emitted again (crash repair)', async () => {
    const id = await createPost('Once');
    await suite.harness.settled();
    const event = suite.harness.emitted.find((e) => e.subjectId === id);
    assert.ok(event);
    await suite.harness.writes.events.emit(suite.harness.db, event);
    assert.equal(await feedCollection(suite.harness.db).countDocuments({ event_id: event.id }), 1);
  });
});
