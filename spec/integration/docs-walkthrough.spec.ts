import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { bash, servedWalkthrough, walkthroughBlocks } from '../support/doc-walkthrough.js';

/** docs/api.md's curl walk-through, run as written against a served app: the docs cannot drift. */
describe('the first session in docs/api.md', () => {
  const served = servedWalkthrough();

  before(async () => {
    const png = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    fs.writeFileSync(path.join(served().dir, 'cover.png'), png);
  });

  it('runs every command as written, and leaves the content it describes', async function () {
    this.timeout(120_000);
    const blocks = walkthroughBlocks('api.md');
    assert.ok(blocks.length >= 6, `only ${String(blocks.length)} sh blocks found`);
    const { h, dir } = served();
    const env = await served().env('demo');
    const run = await bash(blocks.join('\n'), env, dir);
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /"First post, edited"/);
    assert.match(run.out, /"Ada"/);
    assert.match(run.out, /\/files\/[^"]+\.png/);

    const posts = await request(h.app)
      .get(`/v3/buckets/demo/objects?read_key=${env.READ_KEY ?? ''}&query=${encodeURIComponent('{"type":"posts"}')}`)
      .expect(200);
    const post = posts.body.objects[0] as { metadata: { summary: string; cover: { url: string } | null } };
    assert.equal(post.metadata.summary, 'First post, edited');
    assert.ok(post.metadata.cover?.url);
    const folders = await request(h.app)
      .get(`/v3/buckets/demo/media-folders?read_key=${env.READ_KEY ?? ''}`)
      .expect(200);
    assert.deepEqual(
      (folders.body.folders as { slug: string }[]).map((f) => f.slug),
      ['covers'],
    );
  });
});
