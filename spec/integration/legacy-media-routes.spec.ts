import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { loadCosmicV1 } from '../support/cosmic-v1.js';
import { cosmicV2For } from '../support/cosmic-v2.js';
import { declareFolders, upload } from '../support/media.js';
import { BucketSuite } from '../support/bucket-suite.js';

interface MediaPage {
  media: { _id?: string; id?: string }[];
  total: number;
  limit: number;
}

/** v1/v2 media lists answer `limit` beside `total`; v1 edits media at PATCH /v1/{slug}/media/{id}. */
describe('legacy media: list limit and the v1 media edit', () => {
  let server: http.Server;
  const ids: string[] = [];
  const suite = new BucketSuite('pics', async () => {
    await declareFolders(suite.harness.app, suite.keys, ['docs', 'x']);
    for (let i = 0; i < 3; i++) {
      const res = await upload(suite.harness.app, suite.keys, Buffer.from(`bytes ${i}`), {
        filename: `p${i}.txt`,
      }).expect(200);
      ids.push(String(res.body.media.id));
    }
    server = http.createServer(suite.harness.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
  });
  after(() => {
    server.close();
  });

  it('cosmicjs 3.4.4 getMedia answers total and limit (the default, or the one asked)', async () => {
    const { port } = server.address() as AddressInfo;
    const b = loadCosmicV1(`http://127.0.0.1:${String(port)}`)().bucket({
      slug: suite.keys.slug,
      read_key: suite.keys.read_key ?? '',
    });
    const all = (await b.getMedia()) as MediaPage;
    assert.deepEqual([all.media.length, all.total, all.limit], [3, 3, 1000], JSON.stringify(all));
    const two = (await b.getMedia({ limit: 2 })) as MediaPage;
    assert.deepEqual([two.media.length, two.total, two.limit], [2, 3, 2]);
  });

  it('cosmicjs 4.3.7 media list answers total and limit; v3 answers no limit', async () => {
    const Cosmic = await cosmicV2For(suite.harness);
    const b = Cosmic().bucket({ slug: suite.keys.slug, read_key: suite.keys.read_key ?? '' });
    const page = (await b.media.find().limit(2)) as unknown as MediaPage;
    assert.deepEqual([page.media.length, page.total, page.limit], [2, 3, 2], JSON.stringify(page));
    const v3 = await request(suite.harness.app)
      .get(`/v3/buckets/${suite.keys.slug}/media?read_key=${suite.keys.read_key ?? ''}`)
      .expect(200);
    assert.equal(v3.body.limit, undefined);
  });

  it('PATCH /v1/{slug}/media/{id} edits folder, alt_text and metadata with the write key in the body', async () => {
    const id = ids[0] ?? '';
    const res = await request(suite.harness.app)
      .patch(`/v1/${suite.keys.slug}/media/${id}`)
      .send({ write_key: suite.keys.write_key, folder: 'docs', alt_text: 'A file', metadata: { caption: 'hi' } })
      .expect(200);
    assert.equal(res.body.media._id, id);
    assert.equal(res.body.media.id, undefined);
    assert.deepEqual([res.body.media.folder, res.body.media.alt_text], ['docs', 'A file']);
    assert.deepEqual(res.body.media.metadata, { caption: 'hi' });
    const v3 = await request(suite.harness.app)
      .get(`/v3/buckets/${suite.keys.slug}/media/${id}?read_key=${suite.keys.read_key ?? ''}&useCache=false`)
      .expect(200);
    assert.equal(v3.body.media.folder, 'docs');
    // The header works as well; an unknown field is a 400 naming it, a wrong key 401, an unknown id 404.
    const auth = `Bearer ${suite.keys.write_key ?? ''}`;
    const bad = await request(suite.harness.app)
      .patch(`/v1/${suite.keys.slug}/media/${id}`)
      .set('Authorization', auth)
      .send({ colour: 'red' })
      .expect(400);
    assert.match(bad.body.message, /colour/);
    await request(suite.harness.app)
      .patch(`/v1/${suite.keys.slug}/media/${id}`)
      .send({ write_key: 'wrong', folder: 'x' })
      .expect(401);
    const missing = '0123456789abcdef01234567';
    await request(suite.harness.app)
      .patch(`/v1/${suite.keys.slug}/media/${missing}`)
      .set('Authorization', auth)
      .send({ folder: 'x' })
      .expect(404);
  });
});
