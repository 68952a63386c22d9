import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { projectRoot } from '../../lib/project-root.js';
import { freshHarness } from '../support/harness.js';
import { testEngine } from '../support/test-engine.js';
import { PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';

describe('bucketctl create-account, set-password, set-owner, create-bucket --owner', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  it('creates accounts (password from stdin or generated), makes owners, and the API accepts them', async function () {
    // Several CLI processes, each starting node and hashing with scrypt (128 MiB): slow on a busy machine.
    this.timeout(240_000);
    const h = await freshHarness({}, 'content_api_test_accounts_cli');
    const run = (stdin: string | null, ...args: string[]) =>
      new Promise<string>((resolve, reject) => {
        const child = execFile(
          process.execPath,
          [path.join(projectRoot, 'dist', 'bin', 'bucketctl.js'), ...args],
          { env: { ...process.env, MONGODB_URI: testEngine().uri, DB_NAME: h.db.databaseName } },
          (err, stdout, stderr) => {
            if (err) reject(new Error(`${err.message}: ${stderr}`));
            else resolve(stdout);
          },
        );
        child.stdin?.end(stdin ?? '');
      });
    await run(
      'a secret password\n',
      'create-account',
      'cli@example.com',
      '--first-name',
      'C',
      '--last-name',
      'L',
      '--password-stdin',
    );
    const generated = JSON.parse(
      await run(null, 'create-account', 'gen@example.com', '--first-name', 'G', '--last-name', 'N'),
    ) as { password: string };
    assert.ok(generated.password.length >= 16);
    await run(null, 'create-bucket', 'cli-owned', '--owner', 'cli@example.com');
    await h.bucket('cli-other');
    await run(null, 'set-owner', 'cli-other', 'gen@example.com');
    const login = async (email: string, password: string) =>
      (await request(h.app).post('/v2/authenticate').send({ email, password }).expect(200)).body.token as string;
    const cli = await login('cli@example.com', 'a secret password');
    const gen = await login('gen@example.com', generated.password);
    const slugs = async (token: string) =>
      ((await request(h.app).get('/v2/buckets').set('Authorization', token)).body.buckets as { slug: string }[]).map(
        (b) => b.slug,
      );
    assert.deepEqual(await slugs(cli), ['cli-owned']);
    assert.deepEqual(await slugs(gen), ['cli-other']);
    await run('another password\n', 'set-password', 'gen@example.com', '--password-stdin');
    await request(h.app).get('/v2/user').set('Authorization', gen).expect(401);
    await login('gen@example.com', 'another password');
    await assert.rejects(run(null, 'set-owner', 'cli-owned', 'nobody@example.com'), /No account has the e-mail/);
  });
});
