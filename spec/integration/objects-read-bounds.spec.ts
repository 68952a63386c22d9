import assert from 'node:assert/strict';
import { createApp } from '../../lib/app.js';
import { loadConfig } from '../../lib/config.js';
import { bucketClient } from '../support/client.js';
import { BucketSuite } from '../support/bucket-suite.js';

const q = (filter: unknown) => `query=${encodeURIComponent(JSON.stringify(filter))}`;

type Api = ReturnType<typeof bucketClient>;

async function createNodes(api: Api, type: string, count: number, prefix: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    ids.push((await api.post('/objects', { title: `${prefix}${i}`, type }).expect(200)).body.object.id);
  }
  return ids;
}

describe('depth reads: bounded work and shared related Objects', () => {
  /** A client of a second app over the same data whose related-Object cap is 10. */
  let capped: Api;
  let fan: string[] = [];
  const suite = new BucketSuite('bounds', async () => {
    const config = loadConfig({ PUBLIC_URL: 'http://api.test', MAX_RELATED_OBJECTS: '10' });
    capped = bucketClient(
      createApp({ config, db: suite.harness.db, log: (m) => suite.harness.errors.push(m) }),
      suite.keys,
    );
    const links = { type: 'objects', title: 'Links', key: 'links', value: '', object_type: 'fan' };
    await suite.api.post('/object-types', { title: 'Fan', metafields: [links] }).expect(200);
    const one = { type: 'object', title: 'Author', key: 'author', value: '', object_type: 'fan' };
    await suite.api.post('/object-types', { title: 'Posts', metafields: [one] }).expect(200);
    // 31 Objects, each related to the 30 others.
    fan = await createNodes(suite.api, 'fan', 31, 'F');
    for (const id of fan) {
      await suite.api.patch(`/objects/${id}`, { metadata: { links: fan.filter((other) => other !== id) } }).expect(200);
    }
  });

  const fanList = (depth: number) => `/objects?${q({ type: 'fan' })}&limit=30&depth=${depth}&useCache=false`;

  it('answers a 30 × 30 fan at depth 3 quickly with 413, and the next read succeeds', async () => {
    const started = Date.now();
    const res = await suite.api.get(fanList(3)).expect(413);
    assert.ok(Date.now() - started < 5000, `answered in ${Date.now() - started} ms`);
    assert.equal(res.body.code, 'response_too_large');
    assert.match(res.body.message, /over the 6 MB limit \(more than \d+ related Objects to write out/);
    assert.match(res.body.message, /lower depth/);
    const next = await suite.api.get(fanList(1)).expect(200);
    assert.equal(next.body.objects.length, 30);
    for (const o of next.body.objects) assert.equal(o.metadata.links.length, 30);
  });

  it('answers the fan at depth 2 and one fan Object at depth 3 with 413 before writing the JSON', async () => {
    const two = await suite.api.get(fanList(2)).expect(413);
    assert.equal(two.body.code, 'response_too_large');
    assert.match(two.body.message, /MB of JSON counted before stopping/);
    const single = await suite.api.get(`/objects/${fan[0]}?depth=3&useCache=false`).expect(413);
    assert.equal(single.body.code, 'response_too_large');
  });

  it('renders a related Object reached by many references identically everywhere', async () => {
    const [author] = await createNodes(suite.api, 'fan', 1, 'Author');
    const [image] = await createNodes(suite.api, 'fan', 1, 'Image');
    assert.ok(author && image);
    await suite.api.patch(`/objects/${author}`, { metadata: { links: [image] } }).expect(200);
    for (let i = 0; i < 12; i++) {
      await suite.api.post('/objects', { title: `P${i}`, type: 'posts', metadata: { author } }).expect(200);
    }
    const res = await suite.api.get(`/objects?${q({ type: 'posts' })}&depth=2&useCache=false`).expect(200);
    const authors = res.body.objects.map((p: { metadata: { author: unknown } }) => p.metadata.author);
    assert.equal(authors.length, 12);
    for (const a of authors) assert.deepEqual(a, authors[0]);
    const direct = (await suite.api.get(`/objects/${author}?depth=1&useCache=false`).expect(200)).body.object;
    assert.deepEqual(authors[0], direct);
    assert.equal(direct.metadata.links[0].title, 'Image0');
  });

  it('loads at most MAX_RELATED_OBJECTS distinct related Objects per response, over all levels', async () => {
    const hub = async (targets: string[]) => {
      const [id] = await createNodes(suite.api, 'fan', 1, 'Hub');
      assert.ok(id);
      await suite.api.patch(`/objects/${id}`, { metadata: { links: targets } }).expect(200);
      return id;
    };
    const leaves = await createNodes(suite.api, 'fan', 17, 'Leaf');
    const ten = await hub(leaves.slice(0, 10));
    const eleven = await hub(leaves.slice(0, 11));
    await capped.get(`/objects/${ten}?depth=1&useCache=false`).expect(200);
    const over = await capped.get(`/objects/${eleven}?depth=1&useCache=false`).expect(413);
    assert.equal(over.body.code, 'response_too_large');
    assert.match(over.body.message, /more than 10 related Objects/);
    // One Object: no limit or paging to advise.
    assert.match(over.body.message, /the limit for one response: lower depth or narrow props$/);
    // Six at the first level, each leading to one new Object: 12 distinct over two levels.
    const firstLevel = leaves.slice(0, 6);
    for (const [i, id] of firstLevel.entries()) {
      await suite.api.patch(`/objects/${id}`, { metadata: { links: [leaves[11 + i]] } }).expect(200);
    }
    const twoLevels = await hub(firstLevel);
    await capped.get(`/objects/${twoLevels}?depth=1&useCache=false`).expect(200);
    await capped.get(`/objects/${twoLevels}?depth=2&useCache=false`).expect(413);
    // The default cap (1000) lets the same read through.
    await suite.api.get(`/objects/${twoLevels}?depth=2&useCache=false`).expect(200);
    // Props without metadata expand nothing, so nothing counts against the cap.
    await capped.get(`/objects?${q({ id: eleven })}&depth=1&props=id,title&useCache=false`).expect(200);
  });

  it('answers 413 response_too_large for a depth list whose stored Objects exceed 6 MB', async () => {
    await suite.api.post('/object-types', { title: 'Big' }).expect(200);
    const content = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 7; i++)
      await suite.api.post('/objects', { title: `Big ${i}`, type: 'big', content }).expect(200);
    for (const depth of [0, 1]) {
      const res = await suite.api.get(`/objects?${q({ type: 'big' })}&depth=${depth}&useCache=false`).expect(413);
      assert.equal(res.body.code, 'response_too_large');
      assert.match(res.body.message, /MB of stored data read/);
    }
    await suite.api.get(`/objects?${q({ type: 'big' })}&depth=1&limit=5&useCache=false`).expect(200);
  });
});
