import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { MongoClient } from 'mongodb';
import { startEngine } from '../../lib/db/engine.js';
import { intEnv } from './bench-env.js';
import { peerContent } from './peer-data.js';
import { seedService, PEER_BUCKET_SLUG } from './peer-seed.js';
import { servicePostIds } from './peer-writes.js';
import { startServer } from './server-handle.js';

/*
 * `npm run bench:edit-profile`: the service alone answering edits (PATCH of one Metafield at
 * random posts), warmed first, with a CPU profile of the server taken over the measured part
 * only; prints the profile's top functions by self time. For finding where an edit's time goes
 * (issue-level numbers come from bench:peers). BENCH_PEER_POSTS (5000), BENCH_WARMUP_SECONDS (20),
 * BENCH_SECONDS (20), BENCH_CONNECTIONS (8), BENCH_PROFILE_DIR (a temporary folder).
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

/** The `count` functions with most self samples, as "percent name file:line". */
export function topSelf(profile: Profile, count: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const where = frame.url
      ? `${frame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/dist\//, '')}:${String(frame.lineNumber + 1)}`
      : '';
    const key = `${frame.functionName || '(anonymous)'} ${where}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = profile.samples.length || 1;
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${key}`);
}

async function main(): Promise<void> {
  const posts = intEnv('BENCH_PEER_POSTS', 5000);
  const warmup = intEnv('BENCH_WARMUP_SECONDS', 20);
  const seconds = intEnv('BENCH_SECONDS', 20);
  const connections = intEnv('BENCH_CONNECTIONS', 8);
  const dir = process.env.BENCH_PROFILE_DIR || fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'edit-profile-'));
  const engine = await startEngine({ mongodbUri: process.env.MONGODB_URI || null, persistent: false, dataDir: '' });
  const client = new MongoClient(engine.uri);
  try {
    const db = client.db('content_api_edit_profile');
    const keys = await seedService(db, peerContent(posts, 50));
    const ids = await servicePostIds(db);
    const server = await startServer('service', engine.uri, db.databaseName);
    const edits = (duration: number) =>
      autocannon({
        url: server.baseUrl,
        connections,
        duration,
        headers: { Authorization: `Bearer ${keys.writeKey}`, 'Content-Type': 'application/json' },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              method: 'PATCH',
              path: `/v3/buckets/${PEER_BUCKET_SLUG}/objects/${ids[Math.floor(Math.random() * ids.length)] ?? ''}`,
              body: JSON.stringify({ metadata: { score: Math.floor(Math.random() * 1000) } }),
            }),
          },
        ],
      });
    await edits(warmup);
    await server.startProfile();
    const result = await edits(seconds);
    const file = await server.stopProfile(dir);
    console.log(`Engine: ${engine.name}; ${posts} posts; ${connections} connections`);
    console.log(
      `Edits: ${(result['2xx'] / result.duration).toFixed(1)}/s answered 2xx (${String(result.non2xx)} others)`,
    );
    console.log(`Profile: ${file}\nTop 10 by self time:`);
    for (const line of topSelf(JSON.parse(fs.readFileSync(file, 'utf8')) as Profile, 10)) console.log(line);
    await server.stop();
  } finally {
    await client.close();
    await engine.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
