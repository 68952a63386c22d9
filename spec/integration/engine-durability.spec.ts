import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import { startJavaEngine, type JavaEngine } from '../../lib/db/engine-java.js';
import { javaEngineAvailable, processAlive, sleep, tempDir, waitFor } from '../support/engine-helpers.js';

interface Doc {
  _id: number;
  writer: number;
  pad: string;
}

/**
 * Acknowledged writes must survive the death of the embedded engine (H2 backend): the engine is
 * killed with SIGKILL in the middle of a write loop, without warning, then runs again on the same
 * file (the supervisor restarts it) and every write the driver saw acknowledged must be there.
 */
describe('embedded engine durability (H2)', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof tempDir>;
  let engine: JavaEngine | null = null;
  let client: MongoClient | null = null;
  const logs: string[] = [];

  before(function () {
    if (!javaEngineAvailable()) this.skip();
    tmp = tempDir('durability');
  });
  after(async () => {
    await client?.close(true);
    await engine?.stop();
    tmp.cleanup();
  });

  it('keeps every acknowledged insert when the engine is killed with SIGKILL mid-loop', async () => {
    const started = await startJavaEngine({
      persistent: true,
      dataDir: tmp.dir,
      supervision: { log: (m) => logs.push(m) },
    });
    engine = started;
    client = new MongoClient(started.uri, { serverSelectionTimeoutMS: 20_000 });
    await client.connect();
    const docs = client.db('durability').collection<Doc>('docs');

    const acked: number[] = [];
    let stop = false;
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const id = w * 1_000_000 + i;
        try {
          await docs.insertOne({ _id: id, writer: w, pad: 'x'.repeat(200) });
        } catch {
          return; // the engine is gone: this write was never acknowledged
        }
        acked.push(id);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    // Kill it once enough writes are acknowledged for a loss to show (and at least 1 s in: the old
    // code committed about once a second).
    const t0 = Date.now();
    await waitFor(() => acked.length >= 300 && Date.now() - t0 >= 1000, 30_000, '300 acknowledged inserts');
    const pid = started.pid;
    assert.ok(pid !== undefined);
    process.kill(pid, 'SIGKILL');
    const killedAfter = acked.length;
    stop = true;
    // Writes in flight fail; one sent after the kill may wait for the restart and succeed.
    await Promise.all(writers);

    // The supervisor starts it again on the same port and file; the same client reconnects.
    await waitFor(() => started.supervisor.restartCount === 1, 30_000, 'the engine to be restarted');
    assert.equal(processAlive(pid), false);
    const stored = new Set((await docs.find({}, { projection: { _id: 1 } }).toArray()).map((d) => d._id));
    const missing = acked.filter((id) => !stored.has(id));
    console.log(
      `      acknowledged before SIGKILL: ${killedAfter}; stored after restart: ${stored.size}; missing: ${missing.length}`,
    );
    assert.equal(missing.length, 0, `lost ${missing.length} of ${acked.length} acknowledged inserts`);
    assert.ok(
      logs.some((m) => /killed by SIGKILL/.test(m)),
      `the death is logged: ${logs.join(' | ')}`,
    );
  });

  it('keeps everything across a clean stop and a new engine on the same file', async () => {
    assert.ok(engine && client, 'runs after the first test');
    const docs = client.db('durability').collection<Doc>('docs');
    const before = await docs.countDocuments();
    await docs.insertOne({ _id: -1, writer: -1, pad: 'last write before the stop' });
    await client.close();
    client = null;
    await engine.stop();
    engine = null;
    await sleep(50);

    engine = await startJavaEngine({ persistent: true, dataDir: tmp.dir, supervision: { log: (m) => logs.push(m) } });
    client = new MongoClient(engine.uri, { serverSelectionTimeoutMS: 20_000 });
    const again = client.db('durability').collection<Doc>('docs');
    assert.equal(await again.countDocuments(), before + 1);
    assert.equal((await again.findOne({ _id: -1 }))?.pad, 'last write before the stop');
  });
});
