import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { Binary, type ObjectId } from 'mongodb';
import request from 'supertest';
import { extensionsCollection } from '../../lib/store/extensions.js';
import { extensionFixture, type ExtensionFixture } from '../support/extension-harness.js';
import { letRun, pausedRead, settledBufferBytes } from '../support/paused-read.js';
import { buildZip } from '../support/zip-builder.js';

const MiB = 1024 * 1024;
/** Deflated, it is about 40 KB of archive: the shape of the reported 97 KB archive with a 95 MiB file. */
const BIG = 40 * MiB;
/** Stored as is, so the archive itself is this large. */
const STORED = 16 * MiB;
const SCRIPT = 'export const answer = 42; // served by range\n'.repeat(40);

/** Zeros with a numbered marker in each MiB, so a misplaced or repeated slice shows. */
function bigBytes(): Buffer {
  const bytes = Buffer.alloc(BIG);
  for (let i = 0; i < BIG / MiB; i++) bytes.writeUInt32BE(0xc0de0000 + i, i * MiB + 7);
  return bytes;
}

function storedBytes(): Buffer {
  const bytes = Buffer.alloc(STORED);
  for (let i = 0; i < STORED; i++) bytes[i] = i % 251;
  return bytes;
}

/** Reads a body as bytes, whatever its type. */
function binary(res: request.Response, done: (err: Error | null, body: Buffer) => void): void {
  const parts: Buffer[] = [];
  res.on('data', (c: Buffer) => parts.push(c));
  res.on('end', () => {
    done(null, Buffer.concat(parts));
  });
}

describe("Extensions: an archive's files and the archive itself are streamed", () => {
  let f: ExtensionFixture;
  let server: http.Server;
  let port: number;
  let files: string;
  let archivePath: string;
  const expected: Record<string, { size: number; crc32: number }> = {};

  before(async function () {
    this.timeout(120_000);
    f = await extensionFixture('stream', { EXTENSION_MAX_UNPACKED_BYTES: String(64 * MiB) });
    const big = bigBytes();
    const stored = storedBytes();
    const zip = buildZip([
      { name: 'index.html', data: '<!doctype html><script src="app.js"></script>' },
      { name: 'app.js', data: SCRIPT, deflate: true },
      { name: 'big.bin', data: big, deflate: true },
      { name: 'blob.bin', data: stored },
    ]);
    expected.big = { size: big.length, crc32: zlib.crc32(big) };
    expected.blob = { size: stored.length, crc32: zlib.crc32(stored) };
    expected.archive = { size: zip.length, crc32: zlib.crc32(zip) };
    const added = await request(f.app)
      .post('/v2/buckets/stream/extensions')
      .set('Authorization', f.admin)
      .attach('zip', zip, 'large.zip')
      .expect(200);
    files = (added.body.extension.url as string).replace('http://api.test', '').replace(/index\.html$/, '');
    archivePath = (added.body.extension.zip_url as string).replace('http://api.test', '');
    server = http.createServer(f.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    f.sites.close();
    assert.deepEqual(f.h.errors, []);
  });

  it('sends large files and the archive whole and correct while holding a small part of them', async function () {
    this.timeout(180_000);
    const reads: [string, string, { size: number; crc32: number } | undefined, http.OutgoingHttpHeaders][] = [
      ['deflated big.bin', `${files}big.bin`, expected.big, {}],
      ['stored blob.bin', `${files}blob.bin`, expected.blob, {}],
      ['the archive', archivePath, expected.archive, { authorization: f.admin }],
    ];
    for (const [what, path, want, headers] of reads) {
      assert.ok(want);
      const before = await settledBufferBytes();
      // The client stops reading at half: a server that buffers the file holds all of it now.
      const read = await pausedRead(
        port,
        path,
        want.size,
        async () => {
          await letRun(100);
          return (await settledBufferBytes()) - before;
        },
        headers,
      );
      assert.equal(read.status, 200, what);
      assert.equal(read.headers['content-length'], String(want.size), what);
      assert.ok(read.complete, `${what} arrived cut short`);
      assert.deepEqual([read.length, read.crc32], [want.size, want.crc32], what);
      assert.ok(read.atHalf !== null, what);
      // A server that buffers the file holds all of it at this point; under half leaves room for
      // what a busy machine keeps in flight (6.4 MB of a 16 MB file was seen beside four busy loops).
      assert.ok(
        read.atHalf < want.size / 2,
        `${what}: ${read.atHalf} bytes of buffers were live with half of its ${want.size} bytes read`,
      );
    }
  });

  it('serves byte ranges of deflated and stored entries, with ETag, If-Range, HEAD and 416', async () => {
    const get = (name: string, headers: Record<string, string> = {}) =>
      request(f.app).get(`${files}${name}`).set(headers).buffer(true).parse(binary);
    const at = 20 * MiB;
    const big = await get('big.bin', { range: `bytes=${at}-${at + 15}` }).expect(206);
    assert.equal(big.headers['content-range'], `bytes ${at}-${at + 15}/${BIG}`);
    assert.equal(big.headers['content-length'], '16');
    assert.deepEqual(big.body, bigBytes().subarray(at, at + 16));
    const script = Buffer.from(SCRIPT);
    const cases: [string, string, number, number][] = [
      ['app.js', 'bytes=10-29', 10, 29],
      ['app.js', 'bytes=-10', script.length - 10, script.length - 1],
      ['app.js', `bytes=${script.length - 5}-`, script.length - 5, script.length - 1],
      ['blob.bin', 'bytes=1000000-1000099', 1_000_000, 1_000_099],
    ];
    for (const [name, range, first, last] of cases) {
      const res = await get(name, { range }).expect(206);
      assert.equal(
        res.headers['content-range'],
        `bytes ${first}-${last}/${name === 'app.js' ? script.length : STORED}`,
      );
      const whole = name === 'app.js' ? script : storedBytes();
      assert.deepEqual(res.body, whole.subarray(first, last + 1), `${name} ${range}`);
    }
    const full = await get('app.js').expect(200);
    assert.equal(full.headers['accept-ranges'], 'bytes');
    const etag = full.headers.etag;
    assert.ok(typeof etag === 'string' && etag.startsWith('"'));
    await get('app.js', { 'if-none-match': etag }).expect(304);
    const stale = await get('app.js', { range: 'bytes=0-9', 'if-range': '"another"' }).expect(200);
    assert.deepEqual(stale.body, script);
    await get('app.js', { range: 'bytes=0-9', 'if-range': etag }).expect(206);
    const outside = await get('app.js', { range: `bytes=${script.length}-` }).expect(416);
    assert.equal(outside.headers['content-range'], `bytes */${script.length}`);
    const head = await request(f.app).head(`${files}big.bin`).expect(200);
    assert.equal(head.headers['content-length'], String(BIG));
  });

  it('ends the response with an error, never hanging, when the kept archive is damaged', async function () {
    this.timeout(60_000);
    const zip = buildZip([
      { name: 'small.js', data: SCRIPT, deflate: true },
      { name: 'stored.bin', data: crypto.randomBytes(600_000) },
      { name: 'deflated.bin', data: crypto.randomBytes(600_000), deflate: true },
    ]);
    const added = await request(f.app)
      .post('/v1/stream/extensions')
      .set('Authorization', f.admin)
      .attach('zip', zip, 'damaged.zip')
      .expect(200);
    const id = added.body.extension.id as string;
    const doc = await extensionsCollection(f.h.db).findOne({ 'archive.name': 'damaged.zip' });
    assert.ok(doc?.archive);
    const chunks = f.h.db.collection<{ files_id: ObjectId; n: number; data: Binary }>('extension_archives.chunks');
    const fileId = doc.archive.file_id;
    const entry = (name: string) => doc.archive?.files.find((e) => e.name === name);
    const patch = async (offset: number, bytes: Buffer) => {
      const chunk = await chunks.findOne({ files_id: fileId, n: Math.floor(offset / (255 * 1024)) });
      assert.ok(chunk);
      const data = Buffer.from(chunk.data.value());
      bytes.copy(data, offset % (255 * 1024));
      await chunks.updateOne({ _id: chunk._id }, { $set: { data: new Binary(data) } });
    };
    // A stored byte changed past the first chunk: only the CRC-32 at the end can tell.
    await patch((entry('stored.bin')?.dataOffset ?? 0) + 400_000, Buffer.from([0x55, 0xaa]));
    // The archive's last chunk lost: the deflated entry runs out part way.
    const last = await chunks.find({ files_id: fileId }).sort({ n: -1 }).limit(1).next();
    assert.ok(last && last.n >= 3);
    await chunks.deleteOne({ _id: last._id });
    // The small script's deflate data overwritten: it fails before its first byte.
    await patch(entry('small.js')?.dataOffset ?? 0, Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]));

    const base = `/v1/stream/extensions/${id}/files/`;
    for (const name of ['stored.bin', 'deflated.bin']) {
      const read = await pausedRead(port, `${base}${name}`, Infinity, () => Promise.resolve(0));
      assert.ok(
        !(read.status === 200 && read.complete) && read.length < 600_000,
        `${name}: ${read.status}, ${read.length} bytes, ${read.complete ? 'complete' : 'cut'}`,
      );
    }
    const small = await request(f.app).get(`${base}small.js`).expect(500);
    assert.equal(small.body.code, 'internal_error');
    const logged = f.h.errors.splice(0);
    assert.ok(
      logged.length > 0 &&
        logged.every((line) => /^500 on GET .*\/files\/(small\.js|stored\.bin|deflated\.bin)/.test(line)),
      logged.join('\n'),
    );
  });
});
