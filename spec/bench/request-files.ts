import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session, type Profiler } from 'node:inspector/promises';
import request from 'supertest';
import { startTestEngine, stopTestEngine } from '../support/test-engine.js';
import { closeSharedClient, freshHarness } from '../support/harness.js';

/**
 * How many of the service's own files one request runs code in, measured with V8's precise
 * coverage (function call counts): each request is sent once to warm caches, then again between
 * two coverage snapshots; a file counts when any of its functions ran during that second request.
 * Module top levels run only on import, so files that merely define constants do not count.
 * Usage: `npm run bench:request-files` (prints one JSON line per request, then the files of each).
 */

const libRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../lib');

/** The files under lib/ with a function that ran, relative to lib/. */
function filesRun(coverage: Profiler.ScriptCoverage[]): string[] {
  const files = new Set<string>();
  for (const script of coverage) {
    if (!script.url.startsWith('file://')) continue;
    const file = fileURLToPath(script.url);
    if (!file.startsWith(libRoot + path.sep)) continue;
    if (script.functions.some((fn) => fn.ranges.some((r) => r.count > 0))) files.add(path.relative(libRoot, file));
  }
  return [...files].sort();
}

async function main(): Promise<void> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  await startTestEngine();
  try {
    const h = await freshHarness({}, 'request_files');
    const keys = await h.bucket('files');
    const auth = { Authorization: `Bearer ${keys.write_key}` };
    const base = `/v3/buckets/${keys.slug}`;
    const type = {
      title: 'Posts',
      metafields: [
        { type: 'text', title: 'Headline', key: 'headline', value: '' },
        { type: 'object', title: 'Author', key: 'author', object_type: 'posts', value: '' },
      ],
    };
    await request(h.app).post(`${base}/object-types`).set(auth).send(type).expect(200);
    const created = await request(h.app).post(`${base}/objects`).set(auth).send({ title: 'A', type: 'posts' });
    const id = String(created.body.object.id);
    const cases: Record<string, () => request.Test> = {
      'PATCH an Object': () =>
        request(h.app)
          .patch(`${base}/objects/${id}`)
          .set(auth)
          .send({ metadata: { headline: `h${Date.now()}`, author: id } }),
      'list with a query and depth=1': () =>
        request(h.app).get(
          `${base}/objects?read_key=${keys.read_key}&depth=1&useCache=false&query=${encodeURIComponent(
            JSON.stringify({ type: 'posts', title: { $in: ['A', 'B'] } }),
          )}`,
        ),
    };
    const report: Record<string, string[]> = {};
    for (const [name, send] of Object.entries(cases)) {
      await send();
      await h.settled();
      await session.post('Profiler.takePreciseCoverage');
      const res = await send();
      await h.settled();
      const { result } = await session.post('Profiler.takePreciseCoverage');
      const files = filesRun(result);
      const folders = new Set(files.map((f) => path.dirname(f)));
      console.log(JSON.stringify({ request: name, status: res.status, files: files.length, folders: folders.size }));
      report[name] = files;
    }
    for (const [name, files] of Object.entries(report)) console.log(`\n${name}:\n  ${files.join('\n  ')}`);
  } finally {
    await closeSharedClient();
    await stopTestEngine();
    session.disconnect();
  }
}

await main();
