import { MongoClient } from 'mongodb';
import { startEngine } from '../../lib/db/engine.js';
import { mongoRegexProblem } from '../../lib/validation/regex-safety.js';
import { intEnv } from './bench-env.js';

/*
 * `npm run bench:regex`: how long one `$regex` holds the engine, for patterns the filter check
 * accepts (on texts built to make them work hardest) and for ones it refuses (on texts short
 * enough to finish). A query is timed alone, on one stored document, with the driver: the
 * engine runs a pattern without looking at maxTimeMS, so this is the time it is held.
 *
 *   BENCH_REGEX_LONG=1000000 (characters of the texts accepted patterns run on)
 */

const LONG = intEnv('BENCH_REGEX_LONG', 1_000_000);

/** `unit` repeated to `length` characters, then `end`. */
const text = (unit: string, length: number, end = ''): string =>
  unit.repeat(Math.ceil(length / unit.length)).slice(0, length) + end;

interface Case {
  pattern: string;
  options?: string;
  subject: (length: number) => string;
  lengths: number[];
}

const ACCEPTED: Case[] = (
  [
    { pattern: 'hello world', options: 'i', subject: (n) => text('hello ', n) },
    { pattern: '^[a-z]+$', subject: (n) => text('a', n, '!') },
    { pattern: '^.*x', subject: (n) => text('a', n) },
    { pattern: '^\\d+-\\d+$', subject: (n) => `${text('1', n / 2)}-${text('1', n / 2, '!')}` },
    { pattern: '\\b\\d+-\\d+', subject: (n) => text('1', n) },
    { pattern: 'foo\\s+bar', options: 'i', subject: (n) => text('foo     baz ', n) },
    { pattern: 'foo.*', subject: (n) => text('fo', n) },
    { pattern: '\\d+', subject: (n) => text('a', n) },
    { pattern: '[0-9a-f]{40}', subject: (n) => text(`${'a'.repeat(39)}!`, n) },
    { pattern: '\\d{0,60}x', subject: (n) => text('1', n) },
    { pattern: `${'a'.repeat(255)}b`, options: 'i', subject: (n) => text('a', n) },
    { pattern: `${'.'.repeat(255)}x`, subject: (n) => text('a', n) },
  ] as Omit<Case, 'lengths'>[]
).map((c) => ({ ...c, lengths: [LONG] }));

const REFUSED: Case[] = [
  { pattern: '.*.*.*.*.*.*x', subject: (n) => text('a', n), lengths: [30, 40, 50] },
  { pattern: '.*x', subject: (n) => text('a', n), lengths: [10_000, 20_000, 40_000] },
  { pattern: 'a+b', subject: (n) => text('a', n), lengths: [10_000, 20_000] },
  { pattern: '\\d+-\\d+', subject: (n) => text('1', n), lengths: [10_000, 20_000] },
  { pattern: 'hello.*world', subject: (n) => text('hello', n), lengths: [20_000, 40_000] },
  { pattern: '^(a|a)*$', subject: (n) => text('a', n, 'b'), lengths: [20, 24, 26] },
  { pattern: '\\d{0,200}x', subject: (n) => text('1', n), lengths: [LONG / 4] },
];

async function main(): Promise<void> {
  const engine = await startEngine({ mongodbUri: null, persistent: false, dataDir: '' });
  const client = new MongoClient(engine.uri);
  try {
    await client.connect();
    const docs = client.db('regex_cost').collection<{ _id: number; s: string }>('texts');
    await docs.deleteMany({});
    console.log(`Engine: ${engine.name}\n`);
    console.log(`${'pattern'.padEnd(28)} ${'check'.padEnd(8)} ${'characters'.padStart(10)} ${'ms'.padStart(9)}`);
    let id = 0;
    for (const c of [...ACCEPTED, ...REFUSED]) {
      const verdict = mongoRegexProblem(c.pattern, c.options ?? '') === null ? 'accepted' : 'refused';
      for (const length of c.lengths) {
        const subject = c.subject(length);
        // Alone in its collection: the engine may test the pattern on every document it scans.
        await docs.deleteMany({});
        await docs.insertOne({ _id: ++id, s: subject });
        const t0 = performance.now();
        await docs.findOne({ _id: id, s: { $regex: c.pattern, $options: c.options ?? '' } });
        const ms = performance.now() - t0;
        const shown = c.pattern.length > 26 ? `${c.pattern.slice(0, 20)}…(${c.pattern.length})` : c.pattern;
        const label = c.options ? `/${shown}/${c.options}` : shown;
        console.log(
          `${label.padEnd(28)} ${verdict.padEnd(8)} ${String(subject.length).padStart(10)} ${ms.toFixed(1).padStart(9)}`,
        );
      }
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
