import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { prepareDataDir } from '../../lib/db/data-dir.js';
import type { Engine } from '../../lib/db/engine.js';
import type { JavaEngine } from '../../lib/db/engine-java.js';
import { startOwnedEngine } from '../../lib/db/shared-engine.js';
import { javaEngineAvailable, modeOf, tempDir, waitFor } from '../support/engine-helpers.js';

interface AdvertFile {
  uri: string;
  pid: number;
  restarts?: number;
}

const readAdvert = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, 'engine.json'), 'utf8')) as AdvertFile;

describe('DATA_DIR permissions', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof tempDir>;
  let engine: Engine | null = null;

  before(function () {
    if (process.platform === 'win32' || !javaEngineAvailable()) this.skip();
    tmp = tempDir('files');
  });
  afterEach(async () => {
    await engine?.stop();
    engine = null;
  });
  after(() => {
    tmp.cleanup();
  });

  it('creates DATA_DIR 0700 and its engine advert and database file 0600', async () => {
    const dataDir = path.join(tmp.dir, 'fresh', 'data');
    engine = await startOwnedEngine({ mongodbUri: null, persistent: true, dataDir });
    assert.equal(modeOf(dataDir).toString(8), '700');
    assert.equal(modeOf(path.join(dataDir, 'engine.json')).toString(8), '600');
    if (engine.name.includes('mongo-java-server')) {
      assert.equal(modeOf(path.join(dataDir, 'content-api.mv.db')).toString(8), '600');
    } else {
      assert.equal(modeOf(path.join(dataDir, 'mongod')).toString(8), '700');
    }
  });

  it('narrows an existing DATA_DIR and files at start, and keeps the advert private and current on restart', async function () {
    const dataDir = path.join(tmp.dir, 'loose');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const dbFile = path.join(dataDir, 'content-api.mv.db');
    const advertFile = path.join(dataDir, 'engine.json');
    fs.writeFileSync(dbFile, '');
    fs.chmodSync(dbFile, 0o644);
    fs.writeFileSync(advertFile, JSON.stringify({ uri: 'mongodb://127.0.0.1:1/', name: 'stale', pid: 999_999_999 }));
    fs.chmodSync(advertFile, 0o644);

    engine = await startOwnedEngine({
      mongodbUri: null,
      persistent: true,
      dataDir,
      supervision: { log: () => undefined },
    });
    if (!engine.name.includes('mongo-java-server')) this.skip();
    assert.equal(modeOf(dataDir).toString(8), '700');
    assert.equal(modeOf(dbFile).toString(8), '600');
    assert.equal(modeOf(advertFile).toString(8), '600');
    assert.equal(readAdvert(dataDir).uri, engine.uri);
    assert.equal(readAdvert(dataDir).restarts, 0);

    // The engine dies and is restarted: the advert says so, and stays 0600.
    const { supervisor } = engine as JavaEngine;
    const pid = supervisor.pid;
    assert.ok(pid !== undefined);
    process.kill(pid, 'SIGKILL');
    await waitFor(() => supervisor.restartCount === 1, 30_000, 'the restart');
    assert.equal(readAdvert(dataDir).restarts, 1);
    assert.equal(readAdvert(dataDir).uri, engine.uri);
    assert.equal(modeOf(advertFile).toString(8), '600');
    assert.equal(modeOf(dbFile).toString(8), '600');
    assert.deepEqual(
      fs.readdirSync(dataDir).filter((f) => f.endsWith('.tmp')),
      [],
      'no temporary advert left behind',
    );
  });

  it('leaves a shared (sticky) directory alone and says so', () => {
    const shared = path.join(tmp.dir, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777);
    const warnings: string[] = [];
    prepareDataDir(shared, (m) => warnings.push(m));
    assert.equal(modeOf(shared).toString(8), '1777');
    assert.equal(warnings.length, 1);
  });
});
