import { MongoClient, type Document } from 'mongodb';
import { bucketsCollection, objectTypesCollection, publishedObjectsCollection } from '../../lib/db/collections.js';
import { startEngine } from '../../lib/db/engine.js';
import { relatedFilter } from '../../lib/objects/populate/related.js';
import { metadataPaths } from '../../lib/metafields/metadata-paths.js';
import { compileFilter } from '../../lib/query/translate-filter.js';
import { objectListQuery, objectListSort } from '../../lib/objects/list/object-list-query.js';
import { statusMatch } from '../../lib/objects/object-views.js';
import { intEnv } from './bench-env.js';
import { descendantCpuMs } from './proc-cpu.js';
import { PEER_PAGE_SIZE, PEER_QUERIED_GENRE, peerContent } from './peer-data.js';
import { PEER_BUCKET_SLUG, seedParse, seedService } from './peer-seed.js';

/*
 * `npm run bench:query-cost`: where the engine's time goes, query by query, with the driver alone
 * on the peer data (peer-data.ts): the CPU the engine process spends per query (from /proc, so
 * an embedded engine only), which other load on the machine moves far less than wall time. The
 * service's queries come from its own builders; beside them the same page sorted by a top-level
 * field, and Parse Server's queries on its storage shape.
 *
 *   BENCH_PEER_POSTS=5000 BENCH_PEER_AUTHORS=50 BENCH_QUERY_ITERATIONS=60 BENCH_ROUNDS=5
 */

const POSTS = intEnv('BENCH_PEER_POSTS', 5000);
const AUTHORS = intEnv('BENCH_PEER_AUTHORS', 50);
const ITERATIONS = intEnv('BENCH_QUERY_ITERATIONS', 60);
const ROUNDS = intEnv('BENCH_ROUNDS', 5);

type Query = () => Promise<unknown>;

async function queries(client: MongoClient): Promise<Record<string, Query>> {
  const content = peerContent(POSTS, AUTHORS);
  const ours = client.db('query_cost_service');
  const parse = client.db('query_cost_parse');
  await seedService(ours, content);
  await seedParse(parse, content);
  const bucket = (await bucketsCollection(ours).findOne({ slug: PEER_BUCKET_SLUG }))!;
  const types = new Map(
    (await objectTypesCollection(ours).find({ bucket_id: bucket._id }).toArray()).map((t) => [t.slug, t]),
  );
  const translated = compileFilter(JSON.stringify({ type: 'posts', 'metadata.genre': PEER_QUERIED_GENRE }), {
    metadataPaths: metadataPaths(types.values()),
  });
  const q = objectListQuery({
    bucketId: bucket._id,
    viewMatch: statusMatch('published'),
    translated,
    sort: objectListSort('-metadata.score', translated, types),
    keyset: null,
    skip: 0,
    limit: PEER_PAGE_SIZE,
  });
  if (q.sort.random) throw new Error('the benchmarked sort is not random');
  const fields = q.sort.fields;
  const live = publishedObjectsCollection(ours);
  const page = () => live.find(q.pageFilter).sort(fields).limit(q.limit).toArray();
  const authorIds = [...new Set((await page()).map((d) => String(d.metadata.author)))];
  const authors = (await live.find({ type: 'authors' }).toArray()).filter((a) => authorIds.includes(String(a._id)));
  const parsePosts = parse.collection('Post');
  const parseAuthorIds = content.authors.map((_, i) => `a${i.toString(36).padStart(9, '0')}`);
  return {
    'service page (find)': page,
    'service count': () => live.countDocuments(q.filter),
    'service authors, _id $in': () =>
      live
        .find(
          relatedFilter(
            bucket._id,
            authors.map((a) => a._id),
          ),
        )
        .toArray(),
    'service page sorted by order (top level)': () =>
      live.find(q.pageFilter).sort({ order: -1, _id: -1 }).limit(q.limit).toArray(),
    'service filter, nothing sorted or sent': () => live.find({ ...q.filter, 'metadata.genre': 'none' }).toArray(),
    'Parse page (find)': () =>
      parsePosts.find({ genre: PEER_QUERIED_GENRE }).sort({ score: -1 }).limit(PEER_PAGE_SIZE).toArray(),
    'Parse count': () => parsePosts.countDocuments({ genre: PEER_QUERIED_GENRE }),
    'Parse authors, _id $in': () =>
      parse
        .collection<Document & { _id: string }>('Author')
        .find({ _id: { $in: parseAuthorIds } })
        .toArray(),
  };
}

async function main(): Promise<void> {
  const engine = await startEngine({ mongodbUri: null, persistent: false, dataDir: '' });
  const client = new MongoClient(engine.uri);
  try {
    await client.connect();
    console.log(`Engine: ${engine.name}; ${POSTS} posts, ${AUTHORS} authors; ${ITERATIONS} queries per round`);
    const all = await queries(client);
    const cpu = new Map<string, number[]>();
    const wall = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, run] of Object.entries(all)) {
        for (let i = 0; i < 5; i++) await run();
        const cpu0 = descendantCpuMs(new Set());
        const t0 = performance.now();
        for (let i = 0; i < ITERATIONS; i++) await run();
        const cpu1 = descendantCpuMs(new Set());
        if (cpu0 === null || cpu1 === null)
          throw new Error('engine CPU is read from /proc: an embedded engine on Linux');
        cpu.set(name, [...(cpu.get(name) ?? []), (cpu1 - cpu0) / ITERATIONS]);
        wall.set(name, [...(wall.get(name) ?? []), (performance.now() - t0) / ITERATIONS]);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? NaN;
    console.log(`\n${'query'.padEnd(44)} engine CPU ms  wall ms  (medians of ${ROUNDS} rounds)`);
    for (const name of Object.keys(all)) {
      const c = median(cpu.get(name) ?? [])
        .toFixed(2)
        .padStart(13);
      console.log(
        `${name.padEnd(44)} ${c}  ${median(wall.get(name) ?? [])
          .toFixed(2)
          .padStart(7)}`,
      );
    }
  } finally {
    await client.close();
    await engine.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
