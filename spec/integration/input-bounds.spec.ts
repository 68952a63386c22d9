import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

/** `levels` arrays nested in one another around 1. */
function nestedArrays(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

const manyKeys = (n: number, prefix = 'k') =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, 1]));

describe('Bounds on what a write may carry', () => {
  const suite = new BucketSuite('bounds', async () => {
    await suite.api
      .post('/object-types', {
        title: 'Posts',
        metafields: [
          { type: 'json', title: 'Data', key: 'data', value: '' },
          { type: 'text', title: 'Code', key: 'code', value: '' },
        ],
      })
      .expect(200);
  });

  describe('nesting', () => {
    it('refuses a json value nested 1,000 levels with 400 naming where the body limit is crossed, and keeps serving', async () => {
      // About 6 KB; it used to be stored, and documents this deep overflow the engine's stack.
      const res = await suite.api.post('/objects', {
        title: 'Deep',
        type: 'posts',
        metadata: { data: nestedArrays(1000) },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalid_body');
      assert.match(
        res.body.message,
        /^Invalid request body: body\.metadata\.data(\[0\]){62} is nested deeper than 64 levels$/,
      );
      assert.equal(await suite.harness.db.collection('objects').countDocuments({ title: 'Deep' }), 0);
      await suite.api
        .post('/objects', { title: 'Fine', type: 'posts', metadata: { data: nestedArrays(5) } })
        .expect(200);
      await suite.api.get('/objects?props=title').expect(200);
    });

    it('accepts a json value of 32 levels and refuses 33, naming the Metafield and the path', async () => {
      await suite.api
        .post('/objects', { title: 'Ok', type: 'posts', metadata: { data: nestedArrays(32) } })
        .expect(200);
      const res = await suite.api.post('/objects', {
        title: 'No',
        type: 'posts',
        metadata: { data: nestedArrays(33) },
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'metafield_invalid');
      assert.match(
        res.body.message,
        /invalid value for key "data" of type "json": data(\[0\]){32} is nested deeper than 32 levels/,
      );
    });

    it('applies the same bounds in a batch operation, a draft revision and a PATCH', async () => {
      const deep = { data: nestedArrays(33) };
      const batch = await suite.api
        .post('/objects/batch', {
          operations: [{ method: 'add', object: { title: 'B', type: 'posts', metadata: deep } }],
        })
        .expect(200);
      assert.equal(batch.body.operations[0].status, 400);
      assert.match(batch.body.operations[0].message, /nested deeper than 32 levels/);
      const id = (await suite.api.post('/objects', { title: 'Target', type: 'posts' }).expect(200)).body.object.id;
      await suite.api.patch(`/objects/${id}`, { metadata: deep }).expect(400);
      await suite.api.post(`/objects/${id}/revisions`, { metadata: deep }).expect(400);
    });

    it('refuses keys MongoDB cannot store inside a json value, naming the path', async () => {
      for (const key of ['$set', 'a.b', 'nul\u0000']) {
        const res = await suite.api.post('/objects', {
          title: 'K',
          type: 'posts',
          metadata: { data: { list: [{ [key]: 1 }] } },
        });
        assert.equal(res.status, 400, key);
        // NUL is refused in any body key (no BSON document can hold one), the others in json values.
        assert.match(
          res.body.message,
          /data\.list\[0\]: key ".*" (may not start with "\$" or contain "\." or a NUL character|contains a NUL character)/,
        );
      }
    });

    it('bounds media metadata in uploads and PATCH bodies', async () => {
      const deepForm = JSON.stringify({ caption: nestedArrays(33) });
      // The form field is parsed from text, so it never passes the JSON body bound.
      const up = await upload(suite.harness.app, suite.keys, Buffer.from('x'), {
        fields: { metadata: deepForm },
      }).expect(400);
      assert.match(up.body.message, /metadata\.caption(\[0\]){31} is nested deeper than 32 levels/);
      const veryDeep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      const up2 = await upload(suite.harness.app, suite.keys, Buffer.from('x'), {
        fields: { metadata: veryDeep },
      }).expect(400);
      assert.match(up2.body.message, /nested deeper than 32 levels/);
      const media = (
        await upload(suite.harness.app, suite.keys, Buffer.from('x'), { fields: { metadata: '{"a":1}' } }).expect(200)
      ).body.media;
      const patch = await suite.api
        .patch(`/media/${media.id}`, { metadata: { caption: nestedArrays(33) } })
        .expect(400);
      assert.match(patch.body.message, /body\.metadata\.caption(\[0\]){31} is nested deeper than 32 levels/);
    });
  });

  describe('key counts and problem counts', () => {
    it('refuses 16,000 unknown fields at once, with a short answer', async () => {
      const res = await suite.api.post('/objects', { title: 'x', type: 'posts', ...manyKeys(16_000, 'f') });
      assert.equal(res.status, 400);
      assert.equal(res.body.message, 'Invalid request body: body has 16002 keys, more than the 1000 allowed');
      // It once answered 533 KB, one line per unknown field (and took seconds to build it).
      assert.ok(res.text.length < 1000, `${String(res.text.length)} bytes`);
    });

    it('refuses 200,000 metadata keys with a short answer', async () => {
      const res = await suite.api.post('/objects', { title: 'x', type: 'posts', metadata: manyKeys(200_000) });
      assert.equal(res.status, 400);
      assert.equal(res.body.message, 'Invalid request body: body.metadata has 200000 keys, more than the 1000 allowed');
    });

    it('lists 50 metadata problems and counts the rest', async () => {
      const res = await suite.api.post('/objects', { title: 'x', type: 'posts', metadata: manyKeys(900) });
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'metafield_invalid');
      assert.equal(res.body.message.split('; ').length, 51);
      assert.match(res.body.message, /; and 850 more problems$/);
    });
  });

  describe('Metafield definitions', () => {
    const field = (key: string, extra: Record<string, unknown> = {}) => ({
      type: 'text',
      title: 'T',
      key,
      value: '',
      ...extra,
    });

    it('refuses keys that name JavaScript object members or that MongoDB cannot store, naming the key', async () => {
      for (const key of ['__proto__', 'constructor', 'prototype', '$where', 'a.b', 'nul\u0000']) {
        const res = await suite.api.post('/object-types', { title: `Bad ${key.length}`, metafields: [field(key)] });
        assert.equal(res.status, 400, key);
        assert.ok(res.body.message.includes(JSON.stringify(key)), `${key}: ${res.body.message}`);
      }
    });

    /** `levels` levels of parent Metafields around one text Metafield. */
    function parents(levels: number): unknown[] {
      let inner: unknown[] = [field('leaf')];
      for (let i = 1; i < levels; i++) inner = [{ type: 'parent', title: 'P', key: `p${i}`, children: inner }];
      return inner;
    }

    it('allows 8 levels of Metafields, refuses 9 and 300 with 400', async () => {
      await suite.api.post('/object-types', { title: 'Eight', metafields: parents(8) }).expect(200);
      const nine = await suite.api.post('/object-types', { title: 'Nine', metafields: parents(9) }).expect(400);
      assert.match(nine.body.message, /nests Metafields deeper than 8 levels/);
      // 300 levels used to answer 500.
      const deep = await suite.api.post('/object-types', { title: 'Deep', metafields: parents(300) }).expect(400);
      assert.match(deep.body.message, /nested deeper than 64 levels/);
    });

    it('refuses a catastrophic regex, naming the Metafield, so it can never be stored', async () => {
      const res = await suite.api.post('/object-types', {
        title: 'Re',
        metafields: [field('code', { regex: '^(a+)+$' })],
      });
      assert.equal(res.status, 400);
      assert.match(res.body.message, /regex of Metafield "code" is not allowed: nested quantifiers/);
      await suite.api.patch('/object-types/posts', { metafields: [field('code', { regex: '(x+x+)+y' })] }).expect(400);
      // Star height 1, yet "a" × 26 + "b" froze the process for 3 s, doubling with each "a".
      const alike = await suite.api.post('/object-types', {
        title: 'Alike',
        metafields: [field('pin', { regex: '^(a|a)*$' })],
      });
      assert.equal(alike.status, 400);
      assert.match(alike.body.message, /regex of Metafield "pin" is not allowed: \(a\|a\)\* repeats alternatives/);
    });

    it('runs a regex stored before the check existed only on the linear-time engine', async () => {
      const bucket = await suite.harness.db.collection('buckets').findOne({ slug: 'bounds' });
      assert.ok(bucket);
      const now = new Date();
      await suite.harness.db.collection('object_types').insertOne({
        _id: new ObjectId(),
        bucket_id: bucket._id,
        slug: 'legacy',
        title: 'Legacy',
        singular: 'Legacy',
        emoji: '',
        singleton: false,
        metafields: [field('code', { regex: '^(a+)+$' })],
        options: { slug_field: true, content_editor: true },
        localization: false,
        locales: [],
        priority_locale: null,
        preview_link: '',
        extensions: null,
        order: 99,
        created_at: now,
        modified_at: now,
      });
      await suite.harness.db.collection('buckets').updateOne({ _id: bucket._id }, { $inc: { generation: 1 } });
      // 'a' × 29 + '!' froze the process for seconds on RegExp; the linear-time engine just says no.
      const res = await suite.api.post('/objects', {
        title: 'L',
        type: 'legacy',
        metadata: { code: `${'a'.repeat(40)}!` },
      });
      assert.equal(res.status, 400);
      assert.match(res.body.message, /code.*must match pattern "\^\(a\+\)\+\$"/);
      await suite.api.post('/objects', { title: 'L', type: 'legacy', metadata: { code: 'aaa' } }).expect(200);
      // What that engine cannot run (a back-reference) is never run at all.
      await suite.harness.db
        .collection('object_types')
        .updateOne(
          { bucket_id: bucket._id, slug: 'legacy' },
          { $set: { metafields: [field('code', { regex: '^(a+)\\1$' })], modified_at: new Date() } },
        );
      await suite.harness.db.collection('buckets').updateOne({ _id: bucket._id }, { $inc: { generation: 1 } });
      const refused = await suite.api.post('/objects', { title: 'M', type: 'legacy', metadata: { code: 'aa' } });
      assert.equal(refused.status, 400);
      assert.match(refused.body.message, /the Metafield's regex cannot be run safely \(back-references/);
    });
  });
});
