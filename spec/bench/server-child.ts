import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { loadConfig } from '../../lib/config.js';
import { bucketsCollection } from '../../lib/db/collections.js';
import { createBaselineApp } from './baseline-app.js';
import { BUCKET_SLUG } from './seed.js';

/**
 * One server under test, in its own process so the load generator never shares its event loop
 * or its heap (peak RSS is then the server's alone). Started by run.ts with fork():
 * argv[2] is "service" or "baseline"; BENCH_MONGODB_URI and BENCH_DB_NAME say where the data is.
 */
export type ChildCommand = { cmd: 'reset-peak' } | { cmd: 'peak' } | { cmd: 'stop' };
export type ChildMessage = { type: 'ready'; port: number } | { type: 'peak'; rss: number } | { type: 'peak-reset' };

const mode = process.argv[2];
const uri = process.env.BENCH_MONGODB_URI;
const dbName = process.env.BENCH_DB_NAME;
if ((mode !== 'service' && mode !== 'baseline') || !uri || !dbName || !process.send) {
  console.error('server-child: expected fork() with mode service|baseline and BENCH_MONGODB_URI, BENCH_DB_NAME');
  process.exit(2);
}
const send = (m: ChildMessage) => process.send!(m);

// Sampled rather than read from VmHWM because the peak must restart for every scenario.
let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
};
setInterval(sample, 50).unref();

const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
await client.connect();
const db = client.db(dbName);
const app =
  mode === 'service'
    ? // An env of its own: the benchmark must not pick up settings from the shell that runs it.
      createApp({
        // The limiter counts as in production, with a budget the load cannot use up.
        config: loadConfig({ PUBLIC_URL: 'http://127.0.0.1', RATE_LIMIT_READS_PER_MINUTE: '1000000000' }),
        db,
        log: (m) => {
          console.error(`[service] ${m}`);
        },
      })
    : createBaselineApp(db, (await bucketsCollection(db).findOne({ slug: BUCKET_SLUG }))!._id);

const server = app.listen(0, '127.0.0.1', () => send({ type: 'ready', port: (server.address() as AddressInfo).port }));

process.on('message', (m: ChildCommand) => {
  switch (m.cmd) {
    case 'reset-peak':
      peak = 0;
      sample();
      send({ type: 'peak-reset' });
      break;
    case 'peak':
      sample();
      send({ type: 'peak', rss: peak });
      break;
    case 'stop':
      server.closeAllConnections();
      server.close();
      // A clean exit (not a kill) so --cpu-prof can write its profile.
      void client.close().finally(() => process.exit(0));
      break;
  }
});
