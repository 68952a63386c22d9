import assert from 'node:assert/strict';
import { HttpError } from '../../lib/errors/http-errors.js';
import { PerClientLimit } from '../../lib/http/per-client-limit.js';
import { admitRegexScan } from '../../lib/objects/list/regex-budget.js';
import type { ObjectView } from '../../lib/objects/object-views.js';
import { BucketSuite } from '../support/bucket-suite.js';

const q = (filter: unknown) => encodeURIComponent(JSON.stringify(filter));
const KB = 1024;

/**
 * The embedded engine runs `$regex` with a backtracking matcher that `maxTimeMS` does not stop,
 * so a `$regex` on `content` may scan at most QUERY_REGEX_SCAN_MB of text per request.
 */
describe('a $regex on content within a text budget', function () {
  this.timeout(120_000);
  let ids: string[] = [];
  const suite = new BucketSuite(
    'regexbudget',
    async (api) => {
      await api.post('/object-types', { title: 'Posts', slug: 'posts' }).expect(200);
      await api.post('/object-types', { title: 'Notes', slug: 'notes' }).expect(200);
      ids = [];
      for (let i = 0; i < 3; i++) {
        const content = `${i === 1 ? 'needle ' : ''}${'lorem ipsum '.repeat((400 * KB) / 12)}`;
        const res = await api.post('/objects', { title: `Big ${String(i)}`, type: 'posts', content }).expect(200);
        ids.push(String(res.body.object.id));
      }
      await api.post('/objects', { title: 'Small', type: 'notes', content: 'a needle in a small note' }).expect(200);
    },
    { QUERY_REGEX_SCAN_MB: '1' },
  );

  it('answers 400 query_too_broad when the other conditions leave more text than the budget', async () => {
    const res = await suite.api.get(`/objects?query=${q({ type: 'posts', content: { $regex: 'zq0|zq1|zq2' } })}`);
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'query_too_broad');
    assert.match(
      res.body.message,
      /would scan 1\.\d MB of text, more than the 1 MB a request may: narrow the other conditions/,
    );
    const inOr = await suite.api.get(
      `/objects?query=${q({ $or: [{ content: { $regex: 'needle' } }, { title: 'Small' }] })}`,
    );
    assert.equal(inOr.body.code, 'query_too_broad', 'a regex inside $or is not narrowed by its siblings');
  });

  it('runs a narrowed search, and finds what it should', async () => {
    const oneBig = await suite.api.get(
      `/objects?query=${q({ id: ids[1], content: { $regex: '^needle' } })}&props=title`,
    );
    assert.equal(oneBig.status, 200, JSON.stringify(oneBig.body));
    assert.deepEqual(
      oneBig.body.objects.map((o: { title: string }) => o.title),
      ['Big 1'],
    );
    const notes = await suite.api.get(
      `/objects?query=${q({ type: 'notes', content: { $regex: 'NEEDLE', $options: 'i' } })}`,
    );
    assert.equal(notes.status, 200);
    assert.equal(notes.body.total, 1);
  });

  it('leaves a $regex on other fields alone', async () => {
    const res = await suite.api.get(`/objects?query=${q({ title: { $regex: '^Big' } })}&props=title`);
    assert.equal(res.status, 200);
    assert.equal(res.body.total, 3);
  });

  it("refuses with 429 a Bucket's search past its searches at once, and counts nothing for other filters", async () => {
    const limit = new PerClientLimit(1);
    const held = limit.tryAcquire('b1');
    assert.ok(held);
    const unused = {} as ObjectView;
    await assert.rejects(
      admitRegexScan(unused, { content: { $regex: 'x' } }, 0, { limit, bucket: 'b1' }),
      (err: HttpError) => err.status === 429 && err.code === 'rate_limited' && /at most 1 at once/.test(err.message),
    );
    const other = await admitRegexScan(unused, { title: { $regex: 'x' } }, 0, { limit, bucket: 'b1' });
    other();
    held();
    const turn = await admitRegexScan(unused, { content: { $regex: 'x' } }, 0, { limit, bucket: 'b1' });
    assert.equal(limit.tryAcquire('b1'), null, 'the turn is held until released');
    turn();
    assert.ok(limit.tryAcquire('b1'));
  });
});
