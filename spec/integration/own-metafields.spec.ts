import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { exportBucket } from '../../lib/migrate/export.js';
import { importBundle } from '../../lib/migrate/import.js';
import { SILENT } from '../../lib/migrate/progress.js';
import { MetadataValidators } from '../../lib/metafields/metadata-schema.js';
import { BucketSuite } from '../support/bucket-suite.js';

type Row = Record<string, unknown> & { key: string };
interface V1Obj {
  _id: string;
  slug: string;
  metadata: Record<string, unknown>;
  metafields: Row[];
}

const MOOD = {
  key: 'mood',
  type: 'select-dropdown',
  title: 'Mood',
  options: [{ key: 'happy', value: 'Happy' }],
  value: 'happy',
};

/**
 * Metafields an Object carries of its own (legacy Add Object and Edit Metafields send keys its
 * type lacks): stored with the Object, validated, rendered and queried like the type's.
 */
describe('per-Object Metafields', () => {
  const suite = new BucketSuite('ownmf', async (api) => {
    await api
      .post('/object-types', {
        title: 'Notes',
        slug: 'notes',
        metafields: [{ type: 'text', title: 'Headline', key: 'headline', value: '' }],
      })
      .expect(200);
  });
  const v1 = (method: 'post' | 'patch', path: string, body: Record<string, unknown>) => {
    const agent = request(suite.harness.app);
    const sent = method === 'post' ? agent.post(`/v1/ownmf${path}`) : agent.patch(`/v1/ownmf${path}`);
    return sent.send({ write_key: suite.keys.write_key, ...body });
  };
  const readKey = () => encodeURIComponent(suite.keys.read_key ?? '');
  let id = '';

  it('v1 add-object stores a new Metafield; v1, v2 and v3 reads and revisions render it', async () => {
    const added = await v1('post', '/add-object', {
      type_slug: 'notes',
      title: 'Monday',
      metafields: [{ key: 'headline', type: 'text', value: 'Hi' }, MOOD],
    });
    assert.equal(added.status, 200, JSON.stringify(added.body));
    const object = (added.body as { object: V1Obj }).object;
    id = object._id;
    assert.deepEqual(
      object.metafields.map((m) => [m.key, m.value]),
      [
        ['headline', 'Hi'],
        ['mood', { key: 'happy', value: 'Happy' }],
      ],
    );
    const v3 = await suite.api.get(`/objects/${id}`).expect(200);
    assert.deepEqual(v3.body.object.metadata, { headline: 'Hi', mood: { key: 'happy', value: 'Happy' } });
    const one = await request(suite.harness.app).get(`/v1/ownmf/object/monday?read_key=${readKey()}`).expect(200);
    const mood = (one.body as { object: V1Obj }).object.metafields.find((m) => m.key === 'mood');
    assert.deepEqual([mood?.type, mood?.title, mood?.options], ['select-dropdown', 'Mood', MOOD.options]);
    const v2 = await request(suite.harness.app)
      .get(`/v2/buckets/ownmf/objects/${id}?show_metafields=true&read_key=${readKey()}`)
      .expect(200);
    assert.deepEqual(
      (v2.body as { object: { metafields: Row[] } }).object.metafields.map((m) => m.key),
      ['headline', 'mood'],
    );
    const revisions = await suite.api.get(`/objects/${id}/revisions`).expect(200);
    assert.deepEqual(revisions.body.revisions[0].metadata.mood, { key: 'happy', value: 'Happy' });
  });

  it('edit-object-metafields adds a key and updates an existing own one; others are untouched', async () => {
    const edited = await v1('patch', '/edit-object-metafields', {
      slug: 'monday',
      metafields: [
        { key: 'rating', type: 'number', title: 'Rating', value: '4' },
        { ...MOOD, options: [...MOOD.options, { key: 'sad', value: 'Sad' }], value: 'sad' },
      ],
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const v3 = await suite.api.get(`/objects/${id}`).expect(200);
    assert.deepEqual(v3.body.object.metadata, {
      headline: 'Hi',
      mood: { key: 'sad', value: 'Sad' },
      rating: 4,
    });
  });

  it('refuses a bad own definition, a kind other than the type gives, and more own Metafields than allowed', async () => {
    const noOptions = await v1('post', '/add-object', {
      type_slug: 'notes',
      title: 'Bad',
      metafields: [
        { key: 'headline', value: 'x' },
        { key: 'colour', type: 'select-dropdown', title: 'Colour' },
      ],
    }).expect(400);
    assert.match(noOptions.body.message, /metafields\[1\]/);
    const untitled = await v1('patch', '/edit-object-metafields', {
      slug: 'monday',
      metafields: [{ key: 'extra', type: 'text', value: 'x' }],
    }).expect(400);
    assert.match(untitled.body.message, /metafields\[0\].*title/);
    const otherKind = await v1('post', '/add-object', {
      type_slug: 'notes',
      title: 'Bad',
      metafields: [{ key: 'headline', type: 'number', title: 'Headline', value: '3' }],
    }).expect(400);
    assert.match(otherKind.body.message, /"headline"/);
    const many = Array.from({ length: 101 }, (_, i) => ({ key: `k${String(i)}`, type: 'text', title: 'K', value: '' }));
    const tooMany = await v1('post', '/add-object', { type_slug: 'notes', title: 'Bad', metafields: many }).expect(400);
    assert.match(tooMany.body.message, /at most 100/);
  });

  it("a value that breaks an own Metafield's rule is a 400 naming the key", async () => {
    const code = { key: 'code', type: 'text', title: 'Code', regex: '^[A-Z]+$', value: 'abc' };
    const bad = await v1('post', '/add-object', { type_slug: 'notes', title: 'Bad', metafields: [code] }).expect(400);
    assert.match(bad.body.message, /"code"/);
    const option = await v1('patch', '/edit-object-metafields', {
      slug: 'monday',
      metafields: [{ key: 'mood', type: 'select-dropdown', value: 'angry' }],
    }).expect(400);
    assert.match(option.body.message, /"mood"/);
  });

  it('v3 PATCH may set an own key of the Object; other unknown keys stay a 400', async () => {
    const ok = await suite.api.patch(`/objects/${id}`, { metadata: { rating: 5 } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.object.metadata.rating, 5);
    const unknown = await suite.api.patch(`/objects/${id}`, { metadata: { nope: 1 } }).expect(400);
    assert.match(unknown.body.message, /unknown metadata key "nope"/);
    const other = await suite.api.post('/objects', { title: 'Tuesday', type: 'notes', metadata: { rating: 1 } });
    assert.equal(other.status, 400);
    assert.match(other.body.message, /unknown metadata key "rating"/);
  });

  it('query by metadata.<own key> (v3) and metadata[key] (v1) finds the Object', async () => {
    const byQuery = await suite.api
      .get(`/objects?query=${encodeURIComponent(JSON.stringify({ 'metadata.rating': 5 }))}&props=slug`)
      .expect(200);
    assert.deepEqual(byQuery.body.objects, [{ slug: 'monday' }]);
    const byMood = await suite.api
      .get(`/objects?query=${encodeURIComponent(JSON.stringify({ 'metadata.mood': 'sad' }))}&props=slug`)
      .expect(200);
    assert.deepEqual(byMood.body.objects, [{ slug: 'monday' }]);
    const v1List = await request(suite.harness.app)
      .get(`/v1/ownmf/objects?metadata[rating]=5&read_key=${readKey()}`)
      .expect(200);
    assert.deepEqual(
      (v1List.body as { objects: V1Obj[] }).objects.map((o) => o.slug),
      ['monday'],
    );
  });

  it('an export and import round trip keeps the own Metafields and their values', async () => {
    const h = suite.harness;
    const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'ownmf-'));
    try {
      const bundle = path.join(dir, 'ownmf.tar');
      await exportBucket(h.db, 'ownmf', bundle, { revisions: true, gzip: false, progress: SILENT });
      const deps = { db: h.db, events: h.writes.events, validators: new MetadataValidators() };
      const options = { dryRun: false, progress: SILENT, mediaMaxBytes: 1024 * 1024 };
      const summary = await importBundle(deps, 'ownmf-copy', bundle, options);
      assert.deepEqual(summary.warnings, []);
      const copy = summary.created_bucket;
      assert.ok(copy);
      const read = (slug: string) =>
        request(h.app).get(`/v3/buckets/${slug}/objects?props=slug,metadata&read_key=${copy.read_key ?? ''}`);
      const source = await request(h.app).get(`/v3/buckets/ownmf/objects?props=slug,metadata&read_key=${readKey()}`);
      const copied = await read('ownmf-copy').expect(200);
      assert.deepEqual(copied.body.objects, source.body.objects);
      assert.equal(copied.body.objects[0].metadata.rating, 5);
    } finally {
      await fs.promises.rm(dir, { recursive: true, force: true });
    }
  });

  describe('bounds on what an Object defines of its own (stored with every version and revision)', () => {
    // Bodies this large are read only for a key in the header (anonymous ones over 16 KB get 401 unread).
    const add = (metafields: unknown[]) =>
      request(suite.harness.app)
        .post('/v1/ownmf/add-object')
        .set('Authorization', `Bearer ${suite.keys.write_key}`)
        .send({ type_slug: 'notes', title: 'Big', metafields });
    const options = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `o${String(i)}`, value: `O${String(i)}` }));

    it('refuses a select with more than 500 options, naming the Metafield', async () => {
      const res = await add([
        { key: 'huge', type: 'select-dropdown', title: 'Huge', options: options(20_000), value: 'o1' },
      ]);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalid_body');
      assert.match(String(res.body.message), /body\.metafields\[0\]\.options: at most 500 options, got 20000/);
      const fits = await add([
        { key: 'fits', type: 'select-dropdown', title: 'Fits', options: options(500), value: 'o1' },
      ]);
      assert.equal(fits.status, 200, JSON.stringify(fits.body));
    });

    it('refuses a 1 MB title and a long help text, naming each', async () => {
      const res = await add([
        { key: 'a', type: 'text', title: 'x'.repeat(1024 * 1024), value: '' },
        { key: 'b', type: 'text', title: 'B', helptext: 'h'.repeat(1001), value: '' },
      ]);
      assert.equal(res.status, 400);
      assert.match(String(res.body.message), /body\.metafields\[0\]\.title: at most 1000 characters, got 1048576/);
      assert.match(String(res.body.message), /body\.metafields\[1\]\.helptext: at most 1000 characters, got 1001/);
    });

    it('refuses definitions that together pass 64 KiB, on a create and on an edit that adds to them', async () => {
      const many = Array.from({ length: 20 }, (_, i) => ({
        key: `s${String(i)}`,
        type: 'select-dropdown',
        title: `S${String(i)}`,
        options: options(200),
        value: 'o1',
      }));
      const res = await add(many);
      assert.equal(res.status, 400);
      assert.match(
        String(res.body.message),
        /body\.metafields: the Object's own Metafield definitions would take \d+ bytes, at most 65536/,
      );
      const some = await add(many.slice(0, 8));
      assert.equal(some.status, 200, JSON.stringify(some.body));
      const objectId = (some.body as { object: V1Obj }).object._id;
      const more = await request(suite.harness.app)
        .patch(`/v2/buckets/ownmf/objects/${objectId}`)
        .set('Authorization', `Bearer ${suite.keys.write_key}`)
        .send({ metafields: many.slice(8) });
      assert.equal(more.status, 400, JSON.stringify(more.body));
      assert.match(String(more.body.message), /would take \d+ bytes, at most 65536/);
    });
  });
});
