import assert from 'node:assert/strict';
import type { CommandStartedEvent } from 'mongodb';
import request from 'supertest';
import { imageBytes, upload } from '../support/media.js';
import { BucketSuite, COUNTING_COMMANDS } from '../support/bucket-suite.js';

const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));

describe('Queries cannot hold the database', () => {
  const suite = new BucketSuite(
    'safety',
    async () => {
      await suite.api.post('/object-types', {
        title: 'Posts',
        metafields: [{ type: 'text', title: 'T', key: 't', value: '' }],
      });
      await suite.api
        .post('/objects', { title: `${'a'.repeat(40)}b`, type: 'posts', metadata: { t: 'x' } })
        .expect(200);
    },
    { QUERY_TIMEOUT_MS: '4321', ...COUNTING_COMMANDS },
  );

  describe('$regex', () => {
    it('refuses a back-reference with 400 invalid_query naming the path and why', async () => {
      // This pattern pinned an engine thread for ever.
      const res = await suite.api.get(`/objects?query=${q({ title: { $regex: '^(a+)+\\1$' } })}`).expect(400);
      assert.equal(res.body.code, 'invalid_query');
      assert.match(res.body.message, /title\.\$regex: unsafe regular expression: back-references such as \\1/);
    });

    it('refuses nested quantifiers and look-around, inside $not and $or too', async () => {
      const nested = await suite.api.get(`/objects?query=${q({ $or: [{ title: { $not: { $regex: '(a+)+$' } } }] })}`);
      assert.equal(nested.status, 400);
      assert.match(
        nested.body.message,
        /\$or\[0\]\.title\.\$not\.\$regex: unsafe regular expression: nested quantifiers/,
      );
      const look = await suite.api.get(`/objects?query=${q({ 'metadata.t': { $regex: '(?!x)', $options: 'i' } })}`);
      assert.equal(look.status, 400);
      assert.match(look.body.message, /metadata\.t\.\$regex: unsafe regular expression: look-around/);
    });

    it('refuses the same on the media list', async () => {
      const res = await suite.api.get(`/media?query=${q({ name: { $regex: '(x*)*' } })}`).expect(400);
      assert.match(res.body.message, /name\.\$regex: unsafe regular expression/);
    });

    it("refuses the issue's polynomial pattern with 400, before the engine sees it", async () => {
      // With a 400-character content, this held the embedded engine for 35 s (it ignores maxTimeMS).
      const created = await suite.api
        .post('/objects', { title: 'Long', type: 'posts', content: 'a'.repeat(400) })
        .expect(200);
      const id = String(created.body.object.id);
      const filter = { id, content: { $regex: '.*.*.*.*.*.*x' } };
      const res = await suite.api.get(`/objects?query=${q(filter)}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.code, 'invalid_query');
      assert.match(res.body.message, /content\.\$regex: unsafe regular expression: a leading \.\* adds nothing/);
      const quadratic = await suite.api.get(`/objects?query=${q({ title: { $regex: 'a+b' } })}`);
      assert.equal(quadratic.status, 400);
      assert.match(quadratic.body.message, /title\.\$regex: unsafe regular expression: a\+ can take time quadratic/);
    });

    it('still answers plain patterns', async () => {
      const res = await suite.api.get(`/objects?query=${q({ title: { $regex: '^a+b$', $options: 'i' } })}&props=title`);
      assert.equal(res.status, 200);
      assert.equal(res.body.objects.length, 1);
    });
  });

  describe('time limit', () => {
    /** Every command sent while `run` runs, by this test's client. */
    async function commandsDuring(run: () => Promise<unknown>): Promise<CommandStartedEvent[]> {
      const seen: CommandStartedEvent[] = [];
      const listener = (e: CommandStartedEvent) => seen.push(e);
      suite.harness.client.on('commandStarted', listener);
      try {
        await run();
      } finally {
        suite.harness.client.off('commandStarted', listener);
      }
      return seen;
    }

    it('sends maxTimeMS from QUERY_TIMEOUT_MS with every find, aggregate and count', async () => {
      const seen = await commandsDuring(async () => {
        const id = (await suite.api.post('/objects', { title: 'Second', type: 'posts' }).expect(200)).body.object.id;
        await suite.api.patch(`/objects/${id}`, { title: 'Second edit' }).expect(200);
        await suite.api.post(`/objects/${id}/revisions`, { title: 'Draft' }).expect(200);
        await suite.api.get(`/objects?query=${q({ title: { $regex: '^S' } })}&sort=-created_at`).expect(200);
        await suite.api.get('/objects?sort=random&limit=1').expect(200);
        await suite.api.get(`/objects?after=${id}&sort=-created_at`).expect(200);
        await suite.api.get(`/objects/${id}?status=any`).expect(200);
        await suite.api.get(`/objects/${id}?status=any&depth=2`).expect(200);
        await suite.api.get('/objects?depth=1').expect(200);
        await suite.api.get(`/objects/${id}/revisions`).expect(200);
        await suite.api.get('/object-types').expect(200);
        await suite.api.get('/object-types/posts').expect(200);
        await suite.api.get('/media').expect(404);
        await suite.api.get('/media?sort=random').expect(404);
        await suite.api.post('/preview-tokens', {}).expect(200);
        const uploaded = await upload(suite.harness.app, suite.keys, await imageBytes(40, 30), {
          filename: 'p.png',
        }).expect(200);
        const name = String(uploaded.body.media.name);
        await request(suite.harness.app).get(`/imgproc/${suite.keys.slug}/${name}?w=20`).expect(200);
        await request(suite.harness.app).get(`/imgproc/${suite.keys.slug}/${name}?w=20`).expect(200);
        await request(suite.harness.app).get(`/files/${suite.keys.slug}/${name}`).expect(200);
      });
      // The driver's own GridFS reads: a file being streamed (its files document by _id, then its
      // chunks by files_id, index lookups that may rightly run for minutes on a large file), and
      // its one-document probe of whether a bucket is empty before the first upload.
      const gridFsStream = (e: CommandStartedEvent): boolean => {
        const filter = e.command.filter as Record<string, unknown> | undefined;
        if (filter === undefined || !String(e.command.find).startsWith('media_')) return false;
        const keys = Object.keys(filter).join();
        return keys === 'files_id' || keys === '_id' || (keys === '' && e.command.limit === 1);
      };
      const reads = seen.filter((e) => ['find', 'aggregate', 'count'].includes(e.commandName) && !gridFsStream(e));
      assert.ok(reads.length >= 15, `only ${reads.length} reads seen`);
      const unlimited = reads.filter((e) => e.command.maxTimeMS !== 4321);
      assert.deepEqual(
        unlimited.map((e) => `${e.commandName} ${String(e.command[e.commandName])}`),
        [],
        'reads sent without the time limit',
      );
    });
  });
});
