import assert from 'node:assert/strict';
import { MongoClient, MongoServerError, type Admin, type Db, type Document } from 'mongodb';
import { assumeBulkWrite, hasBulkWrite } from '../../lib/db/service-db.js';
import { serviceDb } from '../../lib/db/service-db.js';
import {
  commitInSteps,
  CommitFailed,
  foundOrStop,
  PreconditionFailed,
  writeIfFound,
  writeInSteps,
  type BatchWrite,
} from '../../lib/db/write-batch.js';
import { javaEngineAvailable } from '../support/engine-helpers.js';
import { acrossH2Restart } from '../support/h2-restart.js';
import { testEngine } from '../support/test-engine.js';

interface Doc {
  _id: number;
  n?: number;
}

/**
 * A version write's follow-ups go as one bulkWrite with the clear of its carried work last
 * (lib/db/write-batch.ts): the clear must land only once every write before it did, a write
 * that was done before (duplicate key) must not stop the rest, and a server without the command
 * gets one command per write. Also the embedded engine's own bulkWrite (lib/db/java/ClientBulkWrite.java).
 */
describe('writes sent together, then a last one', function () {
  this.timeout(120_000);
  let client: MongoClient;
  let db: Db;
  let commands: string[] = [];

  const insert = (coll: string, _id: number, doneIfDuplicate = false): BatchWrite => ({
    to: db.collection<Doc>(coll),
    model: { name: 'insertOne', document: { _id } },
    doneIfDuplicate,
  });
  const mark = (coll: string, _id: number): BatchWrite => ({
    to: db.collection<Doc>(coll),
    model: { name: 'updateOne', filter: { _id }, update: { $set: { n: 1 } } },
  });
  const ids = async (coll: string) =>
    (await db.collection<Doc>(coll).find({}).sort({ _id: 1 }).toArray()).map((d) => [d._id, d.n]);

  before(() => {
    client = new MongoClient(testEngine().uri, { monitorCommands: true });
    client.on('commandStarted', (e) => commands.push(e.commandName));
    db = serviceDb(client.db('write_batch'));
  });
  beforeEach(async () => {
    await db.dropDatabase();
    await db.collection<Doc>('a').insertOne({ _id: 1 });
    commands = [];
  });
  afterEach(() => {
    assumeBulkWrite(db, undefined);
  });
  after(async () => client.close());

  it('sends the writes and the last one in one command and reports what the last matched', async () => {
    const last = await writeInSteps(db, [[insert('a', 2), insert('b', 1)]], mark('a', 1));
    assert.deepEqual(last, { sent: true, matched: 1 });
    assert.deepEqual(
      commands.filter((c) => c !== 'buildInfo'),
      ['bulkWrite'],
    );
    assert.deepEqual(await ids('a'), [
      [1, 1],
      [2, undefined],
    ]);
    assert.deepEqual(await ids('b'), [[1, undefined]]);
  });

  it('reports what the last of 300 writes matched, past a cursor’s default first batch of 101 results', async () => {
    const many = Array.from({ length: 300 }, (_, i) => insert('c', i + 1));
    assert.deepEqual(await writeInSteps(db, [many], mark('a', 1)), { sent: true, matched: 1 });
    assert.deepEqual(await writeInSteps(db, [[insert('c', 301)]], mark('a', 404)), { sent: true, matched: 0 });
    assert.equal(await db.collection('c').countDocuments(), 301);
  });

  it('goes on after a write that was done before (a duplicate key it allows)', async () => {
    const last = await writeInSteps(db, [[insert('a', 1, true), insert('b', 1)]], mark('a', 1));
    assert.deepEqual(last, { sent: true, matched: 1 });
    assert.deepEqual(
      commands.filter((c) => c !== 'buildInfo'),
      ['bulkWrite', 'bulkWrite'],
    );
    assert.deepEqual(await ids('b'), [[1, undefined]]);
    assert.deepEqual(await ids('a'), [[1, 1]]);
  });

  it('applies nothing after a write that failed, the last one included', async () => {
    await assert.rejects(writeInSteps(db, [[insert('a', 1), insert('b', 1)]], mark('a', 1)), /duplicate key/);
    assert.deepEqual(await ids('b'), []);
    assert.deepEqual(await ids('a'), [[1, undefined]], 'the last write did not land');
  });

  it('sends one command per write, step after step, and leaves the last to the caller, where the servers lack bulkWrite', async () => {
    assumeBulkWrite(db, false);
    const last = await writeInSteps(db, [[insert('a', 1, true), insert('b', 1)], [mark('b', 1)]], mark('a', 1));
    assert.deepEqual(commands, ['insert', 'insert', 'update'], 'the second step after the first');
    assert.deepEqual(await ids('b'), [[1, 1]]);
    assert.deepEqual(await ids('a'), [[1, undefined]], 'not sent yet');
    assert.ok(!last.sent);
    assert.equal(await last.send(), 1);
    assert.deepEqual(await ids('a'), [[1, 1]]);
  });

  it('sends a write meant for one command only there, and one meant for writes apart only apart', async () => {
    const together: BatchWrite = { ...insert('b', 1), only: 'in-one-command' };
    const apart: BatchWrite = { ...insert('b', 2), only: 'apart' };
    await writeInSteps(db, [[together], [apart]], mark('a', 1));
    assert.deepEqual(await ids('b'), [[1, undefined]]);
    await db.collection('b').deleteMany({});
    assumeBulkWrite(db, false);
    await writeInSteps(db, [[together], [apart]], mark('a', 1));
    assert.deepEqual(await ids('b'), [[2, undefined]]);
  });

  /** An upsert that meets a document of its `_id` it does not match: a duplicate key, as a racing upsert's insert would give. */
  const clashing = (): BatchWrite => ({
    to: db.collection<Doc>('a'),
    model: { name: 'updateOne', filter: { _id: 1, n: 5 }, update: { $set: { n: 5 } }, upsert: true },
    retryIfDuplicate: true,
  });

  for (const oneCommand of [true, false]) {
    it(`sends an upsert that met a duplicate key once more, then gives the error (${oneCommand ? 'one command' : 'apart'})`, async () => {
      assumeBulkWrite(db, oneCommand);
      await assert.rejects(writeInSteps(db, [[clashing()], [insert('b', 1)]], mark('a', 1)), /duplicate key/);
      assert.deepEqual(commands, oneCommand ? ['bulkWrite', 'bulkWrite'] : ['update', 'update']);
      assert.deepEqual(await ids('b'), [], 'nothing after it was sent');
    });
  }

  /** A commit over the version `n` of document 1 of `a`, as an edit's (lib/objects/write/object-edit.ts). */
  const commitOver = (_id: number, n: number | undefined) =>
    writeIfFound(db.collection<Doc>('a'), { _id, n: n ?? { $exists: false } }, { $set: { n: 10 } });

  for (const oneCommand of [true, false]) {
    const how = oneCommand ? 'one command' : 'apart';
    it(`commits, then sends the rest, when the commit finds its version (${how})`, async () => {
      assumeBulkWrite(db, oneCommand);
      const outcome = await commitInSteps(db, commitOver(1, undefined), [[insert('b', 1)]], mark('b', 1));
      assert.equal(outcome.committed, true);
      assert.deepEqual(commands, oneCommand ? ['bulkWrite'] : ['update', 'insert']);
      assert.deepEqual(await ids('a'), [[1, 10]]);
      assert.deepEqual(
        await ids('b'),
        [[1, oneCommand ? 1 : undefined]],
        'apart, the last write is left to the caller',
      );
    });

    it(`writes nothing when another version is in place, or none (${how})`, async () => {
      assumeBulkWrite(db, oneCommand);
      assert.deepEqual(await commitInSteps(db, commitOver(1, 4), [[insert('b', 1)]], mark('a', 1)), {
        committed: false,
      });
      assert.deepEqual(await commitInSteps(db, commitOver(7, undefined), [[insert('b', 1)]], mark('a', 1)), {
        committed: false,
      });
      assert.deepEqual(await ids('a'), [[1, undefined]], 'neither the commit nor the last write, and no document 7');
      assert.deepEqual(await ids('b'), [], 'nothing after the commit');
    });

    it(`tells the commit's own failure from a later write's (${how})`, async () => {
      assumeBulkWrite(db, oneCommand);
      await db.collection<Doc>('b').insertOne({ _id: 1 });
      const taken: BatchWrite = { to: db.collection<Doc>('b'), model: { name: 'insertOne', document: { _id: 1 } } };
      let refused = 0;
      await assert.rejects(
        commitInSteps(db, taken, [[insert('c', 1)]], mark('a', 1), { committed: () => refused++ }),
        CommitFailed,
      );
      assert.equal(refused, 0, 'a refused commit is not reported as done');
      assert.deepEqual(await ids('c'), []);
      let committed = 0;
      await assert.rejects(
        commitInSteps(db, commitOver(1, undefined), [[insert('b', 1)]], mark('a', 1), {
          committed: () => committed++,
        }),
        (err: unknown) => !(err instanceof CommitFailed) && /duplicate key/.test(String(err)),
      );
      assert.deepEqual(await ids('a'), [[1, 10]], 'the commit stands');
      assert.equal(committed, 1, 'and the caller hears that it does');
    });

    it(`sends the rest only while a precondition holds, changing nothing by it (${how})`, async () => {
      assumeBulkWrite(db, oneCommand);
      await db.collection<Doc>('c').insertOne({ _id: 1, n: 3 });
      commands = [];
      const holds = foundOrStop(db.collection<Doc>('c'), { _id: 1, n: 3 });
      const outcome = await commitInSteps(db, commitOver(1, undefined), [[insert('b', 1)]], mark('b', 1), {
        precondition: holds,
      });
      assert.equal(outcome.committed, true);
      assert.deepEqual(commands, oneCommand ? ['bulkWrite'] : ['update', 'update', 'insert']);
      assert.deepEqual(await ids('c'), [[1, 3]], 'the check wrote nothing');
      assert.deepEqual(await ids('a'), [[1, 10]]);
      await db.collection<Doc>('a').updateOne({ _id: 1 }, { $unset: { n: '' } });
      const moved = foundOrStop(db.collection<Doc>('c'), { _id: 1, n: 4 });
      let committed = 0;
      await assert.rejects(
        commitInSteps(db, commitOver(1, undefined), [[insert('b', 2)]], mark('b', 2), {
          precondition: moved,
          committed: () => committed++,
        }),
        PreconditionFailed,
      );
      assert.equal(committed, 0);
      assert.deepEqual(await ids('a'), [[1, undefined]], 'no commit after a check that failed');
      assert.deepEqual(await ids('c'), [[1, 3]], 'and no document inserted by the check');
      assert.deepEqual(
        (await ids('b')).map(([id]) => id),
        [1],
      );
      // A commit that misses behind a check that holds is still a miss, not a failed check.
      assert.deepEqual(
        await commitInSteps(db, commitOver(1, 4), [[insert('b', 3)]], mark('b', 3), { precondition: holds }),
        { committed: false },
      );
    });
  }

  it('runs `between` after the commit and before the rest, the commit in a command of its own', async () => {
    const seen: string[][] = [];
    const between = () => {
      seen.push([...commands]);
      return Promise.resolve();
    };
    const outcome = await commitInSteps(db, commitOver(1, undefined), [[insert('b', 1)]], mark('b', 1), { between });
    assert.equal(outcome.committed, true);
    assert.deepEqual(
      seen.map((c) => c.filter((name) => name !== 'buildInfo')),
      [['update']],
    );
    assert.deepEqual(await ids('b'), [[1, 1]]);
  });

  it('sends one command per write through a driver’s handle as it came, which has nowhere to keep an answer', async () => {
    const raw = client.db('write_batch');
    const last = await writeInSteps(raw, [[insert('b', 1)]], mark('a', 1));
    assert.ok(!last.sent);
    assert.deepEqual(commands, ['insert'], 'no buildInfo asked, no bulkWrite sent');
    assert.throws(() => {
      assumeBulkWrite(raw, true);
    }, /serviceDb/);
  });

  it('keeps what it learns of the servers in the handle: another handle on the same client is not told', async () => {
    const other = serviceDb(client.db('write_batch'));
    assumeBulkWrite(db, false);
    await writeInSteps(db, [[insert('b', 1)]], mark('a', 1));
    await writeInSteps(other, [[insert('b', 2)]], mark('a', 1));
    assert.deepEqual(commands, ['insert', 'buildInfo', 'bulkWrite']);
    assert.equal(await hasBulkWrite(db), false, 'the other handle’s answer did not reach this one');
    assert.equal(serviceDb(db, { queryTimeoutMs: 0 }), db, 'a handle with the same settings is not made again');
    assert.equal(
      await hasBulkWrite(serviceDb(db, { queryTimeoutMs: 10 })),
      false,
      'one made over it shares its servers',
    );
  });

  it('sends writes apart from then on where a server that said it has bulkWrite does not know it, on that handle only', async () => {
    const refusing = serviceDb(refusingBulkWrite(client.db('write_batch')));
    assumeBulkWrite(refusing, true);
    const last = await writeInSteps(refusing, [[insert('b', 1)]], mark('a', 1));
    assert.ok(!last.sent, 'the writes went apart, the last left to the caller');
    assert.deepEqual(commands, ['insert']);
    assert.deepEqual(await ids('b'), [[1, undefined]]);
    assert.equal(await hasBulkWrite(refusing), false);
    assert.equal(await hasBulkWrite(db), true, 'a handle of its own asks for itself');
  });

  it('keeps a bulkWrite’s writes on the H2 backend across a restart', async function () {
    if (!javaEngineAvailable()) this.skip();
    await acrossH2Restart('write_batch_h2', async (kept, run) => {
      if (run === 0) {
        const written = await kept.client.bulkWrite<Record<string, Doc>>([
          { namespace: 'write_batch_h2.a', name: 'insertOne', document: { _id: 1 } },
          {
            namespace: 'write_batch_h2.b',
            name: 'updateOne',
            filter: { _id: 2 },
            update: { $set: { n: 2 } },
            upsert: true,
          },
          { namespace: 'write_batch_h2.a', name: 'deleteOne', filter: { _id: 9 } },
        ]);
        assert.deepEqual([written.insertedCount, written.upsertedCount, written.deletedCount], [1, 1, 0]);
      } else {
        assert.deepEqual(await kept.collection<Doc>('a').find({}).toArray(), [{ _id: 1 }]);
        assert.deepEqual(await kept.collection<Doc>('b').find({}).toArray(), [{ _id: 2, n: 2 }]);
      }
    });
  });
});

/** Binds what a proxy hands out, so the driver's methods keep the real object as `this`. */
function passedOn(target: object, prop: string | symbol): unknown {
  const value: unknown = Reflect.get(target, prop);
  return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

/** `db` on servers that refuse bulkWrite as a command they do not know (a proxy in front of older servers may). */
function refusingBulkWrite(db: Db): Db {
  // The bulkWrite command goes through the handle's Admin (lib/db/plain-commands.ts).
  const refusingAdmin = (admin: Admin): Admin =>
    new Proxy(admin, {
      get(target, prop) {
        if (prop !== 'command') return passedOn(target, prop);
        return (command: Document, ...rest: []) =>
          'bulkWrite' in command
            ? Promise.reject(new MongoServerError({ message: 'no such command: bulkWrite', code: 59 }))
            : target.command(command, ...rest);
      },
    });
  return new Proxy(db, {
    get(target, prop) {
      return prop === 'admin' ? () => refusingAdmin(target.admin()) : passedOn(target, prop);
    },
  });
}
