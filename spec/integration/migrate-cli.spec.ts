import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../lib/project-root.js';
import { bucketClient } from '../support/client.js';
import { freshHarness, type Harness } from '../support/harness.js';
import { testEngine } from '../support/test-engine.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe('bucketctl: the migration commands from the command line', () => {
  let h: Harness;
  let dir: string;
  const dbName = 'content_api_cli';

  /** bucketctl as a user runs it, on the test engine, its stderr not a terminal (plain progress lines). */
  const bucketctl = (...args: string[]): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [path.join(projectRoot, 'dist', 'bin', 'bucketctl.js'), ...args],
        { env: { ...process.env, MONGODB_URI: testEngine().uri, DB_NAME: dbName } },
        (err, stdout, stderr) => {
          resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
        },
      );
    });
  const json = (run: Run): Record<string, unknown> => {
    assert.equal(run.code, 0, run.stderr);
    return JSON.parse(run.stdout) as Record<string, unknown>;
  };

  before(async () => {
    h = await freshHarness({}, dbName);
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'cli-'));
  });
  after(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
    assert.deepEqual(h.errors, []);
  });

  it('builds, installs, exports and imports, printing JSON results and plain progress lines', async function () {
    // Sized for the work on a busy 2-core machine (many requests or child processes), not for speed.
    this.timeout(180_000);
    const faq = path.join(dir, 'faq.tgz');
    assert.equal(json(await bucketctl('build-block', path.join(projectRoot, 'blocks', 'faq'), faq)).built, 'faq');
    const keys = await h.bucket('cli');
    const installed = await bucketctl('install-block', 'cli', faq);
    assert.deepEqual((json(installed).written as Record<string, number>).objects, 3);
    assert.match(installed.stderr, /^install-block: objects 3\/3 \(100%\)$/m);
    assert.equal((await bucketClient(h.app, keys).get('/blocks').expect(200)).body.blocks[0].slug, 'faq');

    const bundle = path.join(dir, 'cli.tgz');
    const exported = json(await bucketctl('export', 'cli', bundle, '--revisions'));
    assert.deepEqual(exported.counts, {
      'object-types': 2,
      media: 0,
      objects: 3,
      revisions: 3,
      webhooks: 0,
      media_bytes: 0,
    });
    assert.deepEqual(fs.readFileSync(bundle).subarray(0, 2), Buffer.from([0x1f, 0x8b]), 'gzipped by its name');
    const dry = json(await bucketctl('import', 'copy', bundle, '--dry-run'));
    assert.equal(dry.dry_run, true);
    assert.equal((dry.checked as Record<string, number>).versions, 3);
    const imported = json(await bucketctl('import', 'copy', bundle));
    assert.match(String((imported.created_bucket as Record<string, unknown>).write_key), /^\S{16,}$/);
  });

  it('answers usage mistakes with 2 and the usage, refusals with 1 and the reason', async function () {
    // Sized for the work on a busy 2-core machine (many requests or child processes), not for speed.
    this.timeout(180_000);
    const usage = await bucketctl('import', 'only-a-slug');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /bucketctl: import takes <slug> <file>\n\nUsage: bucketctl/);
    const pull = await bucketctl('pull', '--bucket', 'x', '--into', 'y');
    assert.equal(pull.code, 2);
    assert.match(pull.stderr, /pull needs --from/);
    const refused = await bucketctl('import', 'cli', path.join(dir, 'cli.tgz'));
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /bucketctl: Bucket "cli" is not empty \(2 Object types, 3 Objects, 0 media\)/);
  });
});
