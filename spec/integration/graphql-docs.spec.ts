import assert from 'node:assert/strict';
import { bash, servedWalkthrough, walkthroughBlocks } from '../support/doc-walkthrough.js';

/** docs/graphql.md's first query, run as written against a served app: the page cannot drift. */
describe('the first query in docs/graphql.md', () => {
  const served = servedWalkthrough();

  it('runs every command as written and answers what the page shows', async function () {
    this.timeout(120_000);
    const blocks = walkthroughBlocks('graphql.md');
    assert.equal(blocks.length, 3);
    const run = await bash(blocks.join('\n'), await served().env('graphql-demo'), served().dir);
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
