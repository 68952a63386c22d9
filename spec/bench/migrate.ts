/**
 * Migration benchmark: seeds a Bucket (by default 20,000 Objects, one revision each and a second
 * version for every tenth, and 200 MB of media in 20 files), then runs `bucketctl export
 * --revisions` and `bucketctl import` as child processes, sampling their resident memory. Both
 * stream, so their peak RSS must not grow with the Bucket: the run is repeated at a tenth of the
 * size to show it.
 *
 *   npm run bench:migrate
 *   MIGRATE_BENCH_OBJECTS=5000 MIGRATE_BENCH_MEDIA_MB=50 npm run bench:migrate
 *
 * The engine is the embedded one (memory backend) or MONGODB_URI; it runs in its own process, so
 * what is measured is bucketctl's memory alone.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient, type Db } from 'mongodb';
import { startEngine } from '../../lib/db/engine.js';
import { ensureIndexes } from '../../lib/indexes.js';
import { exportBucket } from '../../lib/migrate/export.js';
import { seed } from './migrate-seed.js';

const MB = 1024 * 1024;
const OBJECTS = Number(process.env.MIGRATE_BENCH_OBJECTS ?? 20_000);
const MEDIA_MB = Number(process.env.MIGRATE_BENCH_MEDIA_MB ?? 200);
const DB_NAME = 'migrate_bench';
const bucketctl = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'bucketctl.js');

function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return kb ? Number(kb[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Runs bucketctl with `args`, sampling its RSS every 20 ms; returns the peak and the time taken. */
async function measured(uri: string, args: string[]): Promise<{ peakMb: number; seconds: number; out: string }> {
  const started = Date.now();
  const child = spawn(process.execPath, [bucketctl, ...args], {
    env: {
      ...process.env,
      MONGODB_URI: uri,
      DB_NAME,
      NODE_OPTIONS: process.env.MIGRATE_BENCH_CHILD_NODE_OPTIONS ?? '',
    },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let peak = 0;
  const timer = setInterval(() => {
    if (child.pid) peak = Math.max(peak, rssOf(child.pid));
  }, 20);
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`bucketctl ${args.join(' ')} exited ${String(code)}: ${out}`);
  return { peakMb: Math.round(peak / MB), seconds: (Date.now() - started) / 1000, out: out.trim() };
}

/**
 * The export again, in this process, forcing a garbage collection every 2,500 records: the heap
 * left live shows what the export holds (RSS also counts what the collector has not yet taken
 * back). Needs --expose-gc (npm run bench:migrate passes it).
 */
async function liveHeapDuringExport(db: Db, slug: string, file: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return;
  const live: number[] = [];
  const sample = () => {
    gc();
    live.push(process.memoryUsage().heapUsed / MB);
  };
  let records = 0;
  await exportBucket(db, slug, file, {
    revisions: true,
    gzip: false,
    progress: {
      phase: sample,
      tick: (steps = 1) => {
        records += steps;
        if (records % 2500 < steps) sample();
      },
      note: () => undefined,
      done: sample,
    },
  });
  await fs.promises.rm(file);
  console.log(
    `export:  live heap after GC ${Math.min(...live).toFixed(0)}–${Math.max(...live).toFixed(0)} MB over ${live.length} samples`,
  );
}

async function round(uri: string, db: Db, objects: number, mediaMb: number, dir: string): Promise<void> {
  const slug = `bench-${objects}`;
  const t = Date.now();
  await seed(db, slug, objects, mediaMb);
  console.log(`seeded ${objects} Objects and ${mediaMb} MB of media in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  const file = path.join(dir, `${slug}.tar`);
  const exp = await measured(uri, ['export', slug, file, '--revisions']);
  const size = (await fs.promises.stat(file)).size / MB;
  console.log(`export:  ${exp.seconds.toFixed(1)} s, bundle ${size.toFixed(0)} MB, peak RSS ${exp.peakMb} MB`);
  await liveHeapDuringExport(db, slug, `${file}.again`);
  const imp = await measured(uri, ['import', `${slug}-copy`, file]);
  const written = (JSON.parse(imp.out) as { written: Record<string, number> }).written;
  console.log(`import:  ${imp.seconds.toFixed(1)} s, peak RSS ${imp.peakMb} MB, wrote ${JSON.stringify(written)}`);
  await fs.promises.rm(file);
}

async function main(): Promise<void> {
  const engine = await startEngine({ mongodbUri: process.env.MONGODB_URI || null, persistent: false, dataDir: '' });
  console.log(`engine: ${engine.name}`);
  const client = new MongoClient(engine.uri);
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'migrate-bench-'));
  try {
    await client.connect();
    const db = client.db(DB_NAME);
    await db.dropDatabase();
    await ensureIndexes(db);
    const idle = await measured(engine.uri, ['list-buckets']);
    console.log(`bucketctl list-buckets (start-up and connection alone): peak RSS ${idle.peakMb} MB`);
    for (const scale of [0.1, 1]) {
      console.log(`\n-- ${Math.round(OBJECTS * scale)} Objects, ${Math.round(MEDIA_MB * scale)} MB of media`);
      await round(engine.uri, db, Math.round(OBJECTS * scale), Math.round(MEDIA_MB * scale), dir);
    }
  } finally {
    await client.close();
    await engine.stop();
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}

await main();
