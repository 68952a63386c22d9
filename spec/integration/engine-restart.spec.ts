import assert from 'node:assert/strict';
import net from 'node:net';
import { connectDatabase, type Database } from '../../lib/db/database.js';
import type { DbHealthStatus } from '../../lib/db/db-health.js';
import { startJavaEngine, type JavaEngine } from '../../lib/db/engine-java.js';
import { javaEngineAvailable, processAlive, sleep, tempDir, waitFor } from '../support/engine-helpers.js';

/**
 * Plays a program that briefly has the dead engine's port: listens on it (as soon as it is free)
 * and hangs up on whoever connects, until closed.
 */
async function occupy(port: number, withinMs: number): Promise<net.Server> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const server = net.createServer((socket) => socket.destroy());
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      return server;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(5);
    }
  }
}

describe('embedded engine restart after it dies', function () {
  this.timeout(60_000);
  let tmp: ReturnType<typeof tempDir>;
  let engine: JavaEngine;
  let database: Database;
  const logs: string[] = [];
  const transitions: DbHealthStatus[] = [];

  before(async function () {
    if (!javaEngineAvailable()) this.skip();
    tmp = tempDir('restart');
    engine = await startJavaEngine({
      persistent: true,
      dataDir: tmp.dir,
      supervision: { log: (m) => logs.push(m) },
    });
    database = await connectDatabase(engine.uri, 'restart_test');
    database.health.onChange((s) => transitions.push(s));
  });
  after(async () => {
    // Skipped before(): nothing was started.
    if (!javaEngineAvailable()) return;
    await database.close();
    await engine.stop();
    tmp.cleanup();
  });

  it('restarts a SIGKILLed engine on the same port; the same client carries on; health goes down then up', async () => {
    const items = database.db.collection<{ _id: string; n: number }>('items');
    await items.insertOne({ _id: 'before', n: 1 });
    assert.equal(database.health.isUp(), true);
    const { port } = engine;
    const oldPid = engine.pid;
    assert.ok(oldPid !== undefined);

    const killedAt = Date.now();
    process.kill(oldPid, 'SIGKILL');
    // A request made now waits for the restart or fails (within serverSelectionTimeoutMS): it
    // settles, which this await shows; how fast is for the soak to measure, not a busy test run.
    const during = await items.findOne({ _id: 'before' }).then(
      (doc) => ({ ok: true, doc }),
      (err: unknown) => ({ ok: false, err }),
    );
    const duringMs = Date.now() - killedAt;

    await waitFor(() => transitions.some((t) => !t.up), 10_000, 'db health to report down');
    await waitFor(() => database.health.isUp(), 20_000, 'db health to report up again');
    const upAfter = Date.now() - killedAt;
    assert.equal(transitions[0]?.up, false);
    assert.ok(transitions[0].reason, 'down has a reason');
    assert.equal(transitions.at(-1)?.up, true);

    assert.equal(engine.port, port);
    assert.equal(engine.uri, `mongodb://127.0.0.1:${port}/`);
    assert.equal(engine.supervisor.restartCount, 1);
    assert.notEqual(engine.pid, oldPid);
    assert.equal(processAlive(oldPid), false);
    // Same MongoClient, no reconnect by the app: the next operations succeed, on the same data.
    assert.deepEqual(await items.findOne({ _id: 'before' }), { _id: 'before', n: 1 });
    await items.insertOne({ _id: 'after', n: 2 });
    assert.equal(await items.countDocuments(), 2);
    assert.ok(logs.some((m) => /killed by SIGKILL/.test(m)));
    assert.ok(logs.some((m) => /restarted/.test(m)));
    console.log(
      `      request during the outage: ${during.ok ? 'succeeded' : 'failed'} after ${duringMs} ms; ` +
        `health up again ${upAfter} ms after the kill`,
    );
  });

  it('waits for its port when something else holds it briefly', async () => {
    const { port } = engine;
    const pid = engine.pid;
    assert.ok(pid !== undefined);
    const restarts = engine.supervisor.restartCount;
    process.kill(pid, 'SIGKILL');
    // Take the port as soon as the dead engine lets go of it, and hold it 2.5 s: the restarted
    // engine (0.5 s back-off + start-up) must find it taken and wait.
    const squatter = await occupy(port, 2_000);
    await sleep(2_500);
    await new Promise<void>((resolve) =>
      squatter.close(() => {
        resolve();
      }),
    );
    await waitFor(() => engine.supervisor.restartCount === restarts + 1, 30_000, 'the engine to be restarted');
    assert.equal(engine.port, port);
    assert.equal(await database.db.collection('items').countDocuments(), 2);
  });

  it('does not restart an engine stopped on purpose', async () => {
    const pid = engine.pid;
    assert.ok(pid !== undefined);
    const restarts = engine.supervisor.restartCount;
    await database.close();
    await engine.stop();
    assert.equal(engine.supervisor.state, 'stopped');
    assert.equal(processAlive(pid), false);
    await sleep(1_500); // longer than the first back-off
    assert.equal(engine.supervisor.restartCount, restarts);
    assert.equal(engine.pid, undefined);
  });
});
