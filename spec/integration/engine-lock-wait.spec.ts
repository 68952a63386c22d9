import assert from 'node:assert/strict';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { startJavaEngine, type JavaEngine } from '../../lib/db/engine-java.js';
import { javaEngineAvailable, tempDir } from '../support/engine-helpers.js';

/**
 * A service restarted right after kill -9 starts its engine while the old engine (whose parent
 * died) is still shutting down with the data file locked. The new engine waits for the lock
 * instead of failing the start.
 */
describe('an engine started while an old one still holds the data file', function () {
  // Two JVM starts and a clean shutdown, on a busy machine.
  this.timeout(180_000);
  let tmp: ReturnType<typeof tempDir>;
  const engines: JavaEngine[] = [];

  before(function () {
    if (!javaEngineAvailable()) this.skip();
    tmp = tempDir('lock');
  });
  after(async () => {
    for (const e of engines) await e.stop();
    tmp.cleanup();
  });

  it('waits for the lock, then opens the file with the old engine’s data', async () => {
    const dataDir = path.join(tmp.dir, 'data');
    const old = await startJavaEngine({ persistent: true, dataDir });
    engines.push(old);
    const client = new MongoClient(old.uri, { serverSelectionTimeoutMS: 10_000 });
    await client
      .db('lock')
      .collection('notes')
      .insertOne({ _id: 'kept' as never, text: 'written before' });
    await client.close();

    let started = false;
    const next = startJavaEngine({ persistent: true, dataDir }).then((engine) => {
      started = true;
      engines.push(engine);
      return engine;
    });
    // The new engine cannot have the file while the old one runs: it is still waiting.
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(started, false, 'the second engine opened a file the first still held');
    await old.stop();
    const engine = await next;
    const reader = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 10_000 });
    try {
      const doc = await reader
        .db('lock')
        .collection('notes')
        .findOne({ _id: 'kept' as never });
      assert.equal(doc?.text, 'written before');
    } finally {
      await reader.close();
    }
  });
});
