import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freshHarness, type Harness } from '../support/harness.js';
import { bash, walkthroughBlocks } from '../support/doc-walkthrough.js';

/** docs/graphql.md's first query, run as written against a served app: the page cannot drift. */
describe('the first query in docs/graphql.md', () => {
  let h: Harness;
  let server: http.Server;
  let dir: string;

  before(async () => {
    h = await freshHarness();
    server = http.createServer(h.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'graphql-docs-'));
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
    assert.deepEqual(h.errors, []);
  });

  it('runs every command as written and answers what the page shows', async function () {
    this.timeout(120_000);
    const blocks = walkthroughBlocks('graphql.md');
    assert.equal(blocks.length, 3);
    const keys = await h.bucket('graphql-demo');
    const port = (server.address() as AddressInfo).port;
    const env = {
      API: `http://127.0.0.1:${String(port)}/v3/buckets/graphql-demo`,
      READ_KEY: keys.read_key ?? '',
      WRITE_KEY: keys.write_key ?? '',
    };
    const run = await bash(blocks.join('\n'), env, dir);
    assert.equal(run.code, 0, run.out);
    // curl prints answers without a newline: the last one starts at the list's answer.
    const last = run.out.slice(run.out.lastIndexOf('{"data":{"blog_posts"'));
    assert.deepEqual(JSON.parse(last), {
      data: {
        blog_posts: { total: 1, objects: [{ title: 'Hello', metadata: { score: 4, author: { title: 'Ada' } } }] },
      },
    });
  });
});
