import assert from 'node:assert/strict';
import request from 'supertest';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';

describe('read parameters and Cache-Control', () => {
  let id: string;
  let openId: string;
  let previewToken: string;
  const typeQuery = `query=${encodeURIComponent('{"type":"posts"}')}`;

  const suite = new BucketSuite('keyed', async () => {
    await suite.api.post('/object-types', { title: 'Posts' }).expect(200);
    id = (await suite.api.post('/objects', { title: 'One', type: 'posts' }).expect(200)).body.object.id;

    const open = await suite.harness.bucket('open', { kind: 'none' });
    const openApi = bucketClient(suite.harness.app, open);
    await openApi.post('/object-types', { title: 'Posts' }).expect(200);
    openId = (await openApi.post('/objects', { title: 'Open', type: 'posts' }).expect(200)).body.object.id;
    await openApi.post(`/objects/${openId}/revisions`, { title: 'Open draft' }).expect(200);
    previewToken = (await openApi.post('/preview-tokens', { object_id: openId }).expect(200)).body.preview_token;
  });

  const get = (path: string) => request(suite.harness.app).get(`/v3/buckets/${path}`);

  describe('a repeated read_key', () => {
    for (const path of ['keyed/objects', 'keyed/blocks', 'keyed/object-types', 'keyed/media']) {
      it(`answers 400 naming it on ${path}, not 401`, async () => {
        const res = await get(`${path}?read_key=${suite.keys.read_key}&read_key=${suite.keys.read_key}`).expect(400);
        assert.deepEqual(res.body, {
          status: 400,
          code: 'invalid_parameter',
          message: 'Invalid parameters: read_key must be given once, got 2 values',
        });
      });
    }

    it('answers 400 even when one of the values is wrong', async () => {
      const res = await get(`keyed/objects/${id}?read_key=wrong&read_key=${suite.keys.read_key}`).expect(400);
      assert.match(res.body.message, /read_key must be given once/);
    });
  });

  describe('one 400 for every problem', () => {
    it('lists every bad parameter of a list read', async () => {
      const res = await get(
        `keyed/objects?read_key=${suite.keys.read_key}&limit=0&depth=9&status=all&useCache=maybe&props=a%20b&sort=x&sort=y`,
      ).expect(400);
      assert.equal(res.body.code, 'invalid_parameter');
      assert.equal(
        res.body.message,
        'Invalid parameters: props: "a b" (each must be a dotted path of letters, digits, _ and -); ' +
          'status must be one of published, draft, any, got "all"; sort must be given once, got 2 values; ' +
          'limit must be an integer >= 1, got "0"; depth must be an integer from 0 to 3, got "9"; ' +
          'useCache must be true or false, got "maybe"',
      );
    });

    it('checks parameters before the key, so a bad one is named even without a key', async () => {
      const res = await get('keyed/objects?limit=x').expect(400);
      assert.match(res.body.message, /limit must be an integer/);
    });

    it('refuses useCache together with use_cache', async () => {
      const res = await get(`keyed/objects?read_key=${suite.keys.read_key}&useCache=false&use_cache=false`).expect(400);
      assert.match(res.body.message, /useCache and use_cache are one parameter/);
    });

    it('indents the error when pretty itself is valid, and not when it is the problem', async () => {
      const pretty = await get(`keyed/objects?read_key=${suite.keys.read_key}&limit=0&pretty=true`).expect(400);
      assert.match(pretty.text, /^\{\n {2}"status": 400/);
      const compact = await get(`keyed/objects?read_key=${suite.keys.read_key}&limit=0&pretty=yes`).expect(400);
      assert.ok(!compact.text.includes('\n'));
      assert.match(compact.body.message, /limit must be .*; pretty must be true or false, got "yes"/);
    });

    it('checks trigger_webhook on delete routes before anything is deleted', async () => {
      const res = await suite.api.delete(`/objects/${id}?trigger_webhook=perhaps`).expect(400);
      assert.match(res.body.message, /trigger_webhook must be true or false, got "perhaps"/);
      await suite.api.get(`/objects/${id}`).expect(200);
    });
  });

  describe('parameters a route does not take', () => {
    it('are ignored, even repeated or invalid', async () => {
      const res = await get(
        `keyed/objects/${id}?read_key=${suite.keys.read_key}&limit=0&limit=1&colour=red&colour=blue`,
      );
      assert.equal(res.status, 200);
      assert.equal(res.body.object.id, id);
    });

    it('except after on revisions, which would otherwise repeat the first page forever', async () => {
      const res = await get(`keyed/objects/${id}/revisions?read_key=${suite.keys.read_key}&after=${id}`).expect(400);
      assert.match(res.body.message, /after is not supported on revisions; paginate with skip/);
    });
  });

  describe('the read cache', () => {
    it('shares one entry between an empty value and an absent parameter, and ignores unknown extras', async () => {
      const base = `keyed/objects?read_key=${suite.keys.read_key}&${typeQuery}&props=id,title&limit=7`;
      const first = await get(`${base}&skip=`).expect(200);
      assert.equal(first.headers['x-cache'], 'MISS');
      const second = await get(`${base}&utm_source=mail`).expect(200);
      assert.equal(second.headers['x-cache'], 'HIT');
      assert.equal(second.text, first.text);
      const third = await get(`${base}&use_cache=true`).expect(200);
      assert.equal(third.headers['x-cache'], 'HIT');
    });

    it('keeps pretty and compact bodies apart', async () => {
      const base = `keyed/objects/${id}?read_key=${suite.keys.read_key}&props=id`;
      await get(base).expect(200);
      const pretty = await get(`${base}&pretty=true`).expect(200);
      assert.match(pretty.text, /^\{\n/);
    });
  });

  describe('Cache-Control', () => {
    it('is private on every read of a Bucket with a read key, cached or not', async () => {
      const paths = [
        `keyed/objects?${typeQuery}`,
        `keyed/objects/${id}`,
        `keyed/objects/${id}/revisions`,
        'keyed/object-types',
        'keyed/object-types/posts',
        'keyed/blocks',
      ];
      for (const path of paths) {
        for (let i = 0; i < 2; i++) {
          const res = await get(`${path}${path.includes('?') ? '&' : '?'}read_key=${suite.keys.read_key}`).expect(200);
          assert.equal(res.headers['cache-control'], 'private', `${path} (${i === 0 ? 'first' : 'cached'})`);
        }
      }
    });

    it('is private when the write key authorises the read, and on the 401 of a missing key', async () => {
      const bearer = await get('keyed/blocks').set('Authorization', `Bearer ${suite.keys.write_key}`).expect(200);
      assert.equal(bearer.headers['cache-control'], 'private');
      const denied = await get('keyed/blocks').expect(401);
      assert.equal(denied.headers['cache-control'], 'private');
    });

    it('is absent on public reads of a Bucket without a read key', async () => {
      for (const path of [`open/objects?${typeQuery}`, `open/objects/${openId}`, 'open/blocks']) {
        const res = await get(path).expect(200);
        assert.equal(res.headers['cache-control'], undefined, path);
      }
    });

    it('is private on a preview read, even of a Bucket without a read key', async () => {
      const res = await get(`open/objects/${openId}?preview_token=${encodeURIComponent(previewToken)}`).expect(200);
      assert.equal(res.body.object.title, 'Open draft');
      assert.equal(res.headers['cache-control'], 'private');
    });
  });
});
