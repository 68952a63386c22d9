import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { MongoClient } from 'mongodb';
import { createApp } from '../../lib/app.js';
import { loadConfig } from '../../lib/config.js';
import { bucketsCollection } from '../../lib/db/collections.js';
import { createBaselineApp } from './baseline-app.js';
import { createParseApp } from './parse-peer.js';
import { BUCKET_SLUG } from './seed.js';
import { cpuProfiler } from './cpu-profiler.js';

/**
 * One server under test, in its own process so the load generator never shares its event loop
 * or its heap (peak RSS is then the server's alone). Started by server-handle.ts with fork():
 * argv[2] is the mode; BENCH_MONGODB_URI and BENCH_DB_NAME say where the data is, and
 * BENCH_BUCKET_SLUG which Bucket the baseline serves.
 */
export const SERVER_MODES = ['service', 'baseline', 'parse', 'parse-same-work'] as const;
export type ServerMode = (typeof SERVER_MODES)[number];
export type ChildCommand =
  | { cmd: 'reset-peak' }
  | { cmd: 'peak' }
  | { cmd: 'stop' }
  | { cmd: 'profile-start' }
  | { cmd: 'profile-stop'; dir: string };
export type ChildMessage =
  | { type: 'ready'; port: number }
  | { type: 'peak'; rss: number }
  | { type: 'peak-reset' }
  | { type: 'profiling' }
  | { type: 'profile'; file: string };

const mode = process.argv[2];
const uri = process.env.BENCH_MONGODB_URI;
const dbName = process.env.BENCH_DB_NAME;
const isMode = (m: string | undefined): m is ServerMode => SERVER_MODES.some((x) => x === m);
if (!isMode(mode) || !uri || !dbName || !process.send) {
  console.error(
    `server-child: expected fork() with mode ${SERVER_MODES.join('|')} and BENCH_MONGODB_URI, BENCH_DB_NAME`,
  );
  process.exit(2);
}
const send = (m: ChildMessage) => process.send!(m);

// Sampled rather than read from VmHWM because the peak must restart for every scenario.
let peak = 0;
const sample = () => {
  peak = Math.max(peak, process.memoryUsage.rss());
};
setInterval(sample, 50).unref();

const profiler = cpuProfiler();

const client = new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 });
await client.connect();
const db = client.db(dbName);
// Listening first: Parse Server must be told its own address before it is built.
const server = http.createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;

async function makeApp(m: ServerMode): Promise<Express> {
  switch (m) {
    case 'service':
      // An env of its own: the benchmark must not pick up settings from the shell that runs it.
      return createApp({
        // The limiter counts as in production, with a budget the load cannot use up.
        config: loadConfig({
          PUBLIC_URL: 'http://127.0.0.1',
          RATE_LIMIT_READS_PER_MINUTE: '1000000000',
          RATE_LIMIT_WRITES_PER_MINUTE: '1000000000',
          // Set by the bench itself for the variant keeping no list orders.
          ...(process.env.BENCH_LIST_ORDER_MAX_IDS ? { LIST_ORDER_MAX_IDS: process.env.BENCH_LIST_ORDER_MAX_IDS } : {}),
          // Set by the realtime bench, which opens more streams than the default caps allow.
          ...(process.env.BENCH_REALTIME_STREAMS
            ? { REALTIME_STREAMS_PER_BUCKET: '0', REALTIME_STREAMS_PER_ADDRESS: '0' }
            : {}),
        }),
        db,
        log: (msg) => {
          console.error(`[service] ${msg}`);
        },
      });
    case 'baseline': {
      const slug = process.env.BENCH_BUCKET_SLUG || BUCKET_SLUG;
      return createBaselineApp(db, (await bucketsCollection(db).findOne({ slug }))!._id);
    }
    case 'parse':
    case 'parse-same-work': {
      const databaseURI = new URL(uri!);
      databaseURI.pathname = `/${dbName}`;
      return createParseApp(databaseURI.toString(), port, m === 'parse-same-work' ? db : undefined);
    }
  }
}

server.on('request', await makeApp(mode));
send({ type: 'ready', port });

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
    case 'profile-start':
      void profiler.start().then(() => send({ type: 'profiling' }));
      break;
    case 'profile-stop':
      void profiler.stop(m.dir).then((file) => send({ type: 'profile', file }));
      break;
    case 'stop':
      server.closeAllConnections();
      server.close();
      // A clean exit (not a kill) so --cpu-prof can write its profile.
      void client.close().finally(() => process.exit(0));
      break;
  }
});
