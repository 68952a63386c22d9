import { MongoClient } from 'mongodb';
import { loadConfig } from '../../lib/config.js';
import { DeliveryWorker } from '../../lib/webhooks/worker.js';

/**
 * A delivery worker in a process of its own, as every app process runs one, so tests can kill it
 * with SIGKILL or run two side by side. Started with fork(): CHILD_MONGODB_URI and CHILD_DB_NAME
 * say where the outbox is; WEBHOOK_* variables configure it as they do the server.
 */
export type WorkerChildMessage = { type: 'ready' } | { type: 'attempted'; count: number };
export type WorkerChildCommand = { cmd: 'attempted' } | { cmd: 'stop' };

const uri = process.env.CHILD_MONGODB_URI;
const dbName = process.env.CHILD_DB_NAME;
const send = process.send?.bind(process);
if (!uri || !dbName || !send) {
  console.error('webhook-worker-child: expected fork() with CHILD_MONGODB_URI and CHILD_DB_NAME');
  process.exit(2);
}

const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
await client.connect();
const worker = new DeliveryWorker(client.db(dbName), loadConfig(process.env).webhooks, {
  log: (m) => {
    console.error(`[webhook worker] ${m}`);
  },
});
worker.start();
send({ type: 'ready' } satisfies WorkerChildMessage);

process.on('message', (m: WorkerChildCommand) => {
  if (m.cmd === 'attempted') send({ type: 'attempted', count: worker.attempted } satisfies WorkerChildMessage);
  else
    void worker
      .stop()
      .then(() => client.close())
      .finally(() => process.exit(0));
});
