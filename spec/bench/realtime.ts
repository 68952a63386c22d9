import fs from 'node:fs';
import http from 'node:http';
import { MongoClient } from 'mongodb';
import { startEngine } from '../../lib/db/engine.js';
import { intEnv } from './bench-env.js';
import { machineLine } from './bench-apps.js';
import { peerContent } from './peer-data.js';
import { PEER_BUCKET_SLUG, seedService } from './peer-seed.js';
import { servicePostIds } from './peer-writes.js';
import { startServer, type ServerHandle } from './server-handle.js';

/*
 * `npm run bench:realtime`: the change feed (GET /v3/buckets/{slug}/events) on one server child.
 *   1. Memory per idle stream: the server's RSS before and after opening BENCH_STREAMS (1,000)
 *      streams with the read key, over its own sockets.
 *   2. Delay from a write's answer to its event at a subscriber (p50, p99), while edits land at
 *      the write rate of the peer bench's mixed scenarios (one every 50 ms, BENCH_WRITE_EVERY_MS),
 *      for BENCH_SECONDS (20). The feed hands out an event once it is REALTIME_SETTLE_MS (500 ms)
 *      old, so that much of the delay is by design (docs/realtime.md).
 */

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${String(pid)}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Opens a stream and calls `onMessage` with each message's data; resolves once the answer's headers came. */
function openStream(
  server: ServerHandle,
  path: string,
  agent: http.Agent,
  onMessage: (data: string) => void = () => undefined,
): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${server.baseUrl}${path}`, { agent, headers: { Accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        reject(new Error(`stream answered ${String(res.statusCode)}`));
        return;
      }
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let end;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const message = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          const data = message
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (data) onMessage(data);
        }
      });
      resolve(req);
    });
    req.on('error', reject);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

async function main(): Promise<void> {
  const streams = intEnv('BENCH_STREAMS', 1000);
  const seconds = intEnv('BENCH_SECONDS', 20);
  const everyMs = intEnv('BENCH_WRITE_EVERY_MS', 50);
  const engine = await startEngine({ mongodbUri: process.env.MONGODB_URI || null, persistent: false, dataDir: '' });
  const client = new MongoClient(engine.uri);
  const opened: http.ClientRequest[] = [];
  let server: ServerHandle | null = null;
  try {
    const db = client.db('content_api_realtime_bench');
    const keys = await seedService(db, peerContent(500, 20));
    const ids = await servicePostIds(db);
    server = await startServer('service', engine.uri, db.databaseName, { env: { BENCH_REALTIME_STREAMS: '1' } });
    const feed = `/v3/buckets/${PEER_BUCKET_SLUG}/events?read_key=${encodeURIComponent(keys.readKey)}`;
    console.log(`Engine: ${engine.name}\n${machineLine()}`);

    const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
    await sleep(2000);
    const before = rssOf(server.pid);
    for (let i = 0; i < streams; i += 50)
      opened.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(50, streams - i) }, () => openStream(server!, feed, agent)),
        )),
      );
    await sleep(5000);
    const after = rssOf(server.pid);
    console.log(
      `Idle streams: ${String(streams)} open; server RSS ${(before / 2 ** 20).toFixed(1)} MB -> ${(after / 2 ** 20).toFixed(1)} MB: ${((after - before) / streams / 1024).toFixed(1)} kB per stream`,
    );

    // One more subscriber, timing each edit from its answer to its event.
    const answered = new Map<string, number>();
    const delays: number[] = [];
    opened.push(
      await openStream(server, feed, agent, (data) => {
        const event = JSON.parse(data) as { type?: string; data?: { title?: string } };
        const at = event.data?.title !== undefined ? answered.get(event.data.title) : undefined;
        if (event.type === 'object.edited' && at !== undefined) delays.push(performance.now() - at);
      }),
    );
    let n = 0;
    let writes = 0;
    const headers = { Authorization: `Bearer ${keys.writeKey}`, 'Content-Type': 'application/json' };
    const timer = setInterval(() => {
      const title = `edit ${String(n++)}`;
      const id = ids[Math.floor(Math.random() * ids.length)] ?? '';
      void fetch(`${server!.baseUrl}/v3/buckets/${PEER_BUCKET_SLUG}/objects/${id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ title }),
      }).then(async (res) => {
        await res.arrayBuffer();
        if (res.ok) {
          answered.set(title, performance.now());
          writes++;
        }
      });
    }, everyMs);
    await sleep(seconds * 1000);
    clearInterval(timer);
    await sleep(3000);
    const sorted = delays.sort((a, b) => a - b);
    console.log(
      `Write answer -> event at a subscriber (${String(streams)} other streams open, ${String(writes)} edits in ${String(seconds)} s, ${(writes / seconds).toFixed(1)}/s): ` +
        `p50 ${percentile(sorted, 50).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms over ${String(sorted.length)} events`,
    );
  } finally {
    for (const req of opened) req.destroy();
    await server?.stop();
    await client.close();
    await engine.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
