import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generate } from '@graphql-codegen/cli';
import { ClientError, GraphQLClient } from 'graphql-request';
import { projectRoot } from '../../lib/project-root.js';
import { BucketSuite } from '../support/bucket-suite.js';

const run = promisify(execFile);

/**
 * Real GraphQL clients, unchanged, against a listening server: graphql-request runs queries and
 * mutations, and graphql-codegen makes TypeScript from the Bucket's introspected schema, which a
 * typed query must then compile against under `tsc --strict` (and a wrong use must not).
 */
describe('GraphQL: real clients', function () {
  this.timeout(240_000);
  let server: http.Server;
  let url = '';
  const suite = new BucketSuite('gql-clients', async (api) => {
    await api
      .post('/object-types', {
        title: 'Posts',
        slug: 'posts',
        metafields: [
          { type: 'number', title: 'Score', key: 'score', value: '' },
          { type: 'check-boxes', title: 'Tags', key: 'tags', value: [], options: [{ value: 'a' }, { value: 'b' }] },
        ],
      })
      .expect(200);
    await api.post('/objects', { title: 'First', type: 'posts', metadata: { score: 3, tags: ['a'] } }).expect(200);
  });

  before(async () => {
    server = http.createServer(suite.harness.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}/v3/buckets/gql-clients/graphql`;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('graphql-request: queries with the read key, mutates with the write key, and gets the v3 error code', async () => {
    const reader = new GraphQLClient(`${url}?read_key=${suite.keys.read_key ?? ''}`);
    const read = await reader.request<{ posts: { total: number; objects: { title: string }[] } }>(
      'query Posts($limit: Int) { posts(limit: $limit) { total objects { title } } }',
      { limit: 10 },
    );
    assert.deepEqual(read.posts, { total: 1, objects: [{ title: 'First' }] });

    const writer = new GraphQLClient(url, { headers: { Authorization: `Bearer ${suite.keys.write_key ?? ''}` } });
    const made = await writer.request<{ create_posts: { id: string; metadata: { score: number } } }>(
      'mutation Make($data: PostsCreate!) { create_posts(data: $data) { id metadata { score } } }',
      { data: { title: 'Second', metadata: { score: 7 } } },
    );
    assert.equal(made.create_posts.metadata.score, 7);

    await assert.rejects(
      reader.request('mutation { delete_posts(id: "0123456789abcdef01234567") }'),
      (err: unknown) => err instanceof ClientError && err.response.errors?.[0]?.extensions.code === 'unauthorized',
    );
  });

  it('graphql-codegen: types from the introspected schema; a typed query compiles under tsc --strict, a wrong use does not', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gql-codegen-'));
    try {
      fs.writeFileSync(
        path.join(dir, 'posts.graphql'),
        'query Posts { posts(limit: 5) { total objects { id title metadata { score tags } } } }\n',
      );
      await generate(
        {
          schema: `${url}?read_key=${suite.keys.read_key ?? ''}`,
          documents: path.join(dir, 'posts.graphql'),
          generates: { [path.join(dir, 'generated.ts')]: { plugins: ['typescript', 'typescript-operations'] } },
          silent: true,
        },
        true,
      );
      const generated = fs.readFileSync(path.join(dir, 'generated.ts'), 'utf8');
      assert.match(generated, /export type PostsQuery = /);
      fs.writeFileSync(
        path.join(dir, 'use.ts'),
        [
          "import type { PostsQuery } from './generated.js';",
          'export function firstScore(data: PostsQuery): number | null | undefined {',
          '  const tags: readonly string[] | undefined = data.posts.objects[0]?.metadata?.tags;',
          '  void tags;',
          '  return data.posts.objects[0]?.metadata?.score;',
          '}',
          'export const total = (data: PostsQuery): number => data.posts.total;',
          '',
        ].join('\n'),
      );
      const tsc = path.join(projectRoot, 'node_modules', 'typescript', 'bin', 'tsc');
      const args = [
        '--strict',
        '--noEmit',
        '--skipLibCheck',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--target',
        'es2022',
      ];
      await run(process.execPath, [tsc, ...args, path.join(dir, 'use.ts')]);
      // The types are real: a score is not a string.
      fs.writeFileSync(
        path.join(dir, 'wrong.ts'),
        "import type { PostsQuery } from './generated.js';\nexport const s = (d: PostsQuery): string => d.posts.objects[0]?.metadata?.score ?? '';\n",
      );
      await assert.rejects(run(process.execPath, [tsc, ...args, path.join(dir, 'wrong.ts')]), (err: unknown) => {
        // tsc writes its errors to stdout.
        assert.match(String((err as { stdout?: unknown }).stdout), /wrong\.ts.*TS2322/);
        return true;
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
