import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { checkZip, ZipRefusal, type ZipEntry } from '../../lib/store/zip-check.js';
import { entryBytes, type ArchiveReader } from '../../lib/extensions/zip-unpack.js';
import { buildZip, type ZipFile } from '../support/zip-builder.js';

const KiB = 1024;

interface Archive {
  entry: ZipEntry;
  /** Reads the archive in `piece`-byte chunks, recording what was asked and how much it handed out. */
  reader: ArchiveReader;
  asked: [number, number][];
  handedOut: () => number;
}

function archiveOf(file: ZipFile, piece = 64 * KiB, patch?: (zip: Buffer, entry: ZipEntry) => void): Archive {
  const zip = buildZip([file]);
  const [entry] = checkZip(zip, { maxBytes: zip.length, maxEntries: 1 });
  assert.ok(entry);
  patch?.(zip, entry);
  const asked: [number, number][] = [];
  let handed = 0;
  const reader: ArchiveReader = async function* (start, end) {
    asked.push([start, end]);
    for (let at = start; at < end; at += piece) {
      const chunk = zip.subarray(at, Math.min(end, at + piece));
      handed += chunk.length;
      yield await Promise.resolve(chunk);
    }
  };
  return { entry, reader, asked, handedOut: () => handed };
}

async function collect(chunks: AsyncIterable<Buffer>): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of chunks) out.push(chunk);
  return out;
}

/** The refusal's message and the bytes handed out before it. */
async function failure(chunks: AsyncIterable<Buffer>): Promise<{ message: string; before: number }> {
  let before = 0;
  try {
    for await (const chunk of chunks) before += chunk.length;
  } catch (err) {
    assert.ok(err instanceof Error);
    return { message: err instanceof ZipRefusal ? err.message : `not a refusal: ${err.message}`, before };
  }
  return assert.fail('the entry was read without an error');
}

describe('extension entry bytes: streamed out of the archive', () => {
  const data = crypto.randomBytes(300 * KiB);

  it('inflates a large entry in small chunks, never in one piece', async () => {
    const zeros = Buffer.alloc(8 * 1024 * KiB);
    zeros.write('end', zeros.length - 3);
    const { entry, reader } = archiveOf({ name: 'big.bin', data: zeros, deflate: true }, 1000);
    const chunks = await collect(entryBytes(reader, entry));
    assert.ok(Buffer.concat(chunks).equals(zeros));
    assert.ok(Math.max(...chunks.map((c) => c.length)) <= 64 * KiB);
  });

  it('cuts byte ranges out of deflated entries and reads only the range of stored ones', async () => {
    for (const deflate of [true, false]) {
      const ranges = [
        { start: 0, end: 0 },
        { start: 16 * KiB - 3, end: 16 * KiB + 2 },
        { start: 100_000, end: 200_000 },
        { start: data.length - 10, end: data.length - 1 },
      ];
      for (const range of ranges) {
        const a = archiveOf({ name: 'r.bin', data, deflate }, 7000);
        const got = Buffer.concat(await collect(entryBytes(a.reader, a.entry, range)));
        assert.ok(got.equals(data.subarray(range.start, range.end + 1)), `${deflate} ${JSON.stringify(range)}`);
        const from = a.entry.dataOffset;
        const wanted = deflate ? [from, from + a.entry.compressedSize] : [from + range.start, from + range.end + 1];
        assert.deepEqual(a.asked, [wanted]);
      }
    }
  });

  it('stops reading a deflated entry once its range is sent', async () => {
    const a = archiveOf({ name: 'r.bin', data, deflate: true }, 4 * KiB);
    await collect(entryBytes(a.reader, a.entry, { start: 0, end: 9 }));
    assert.ok(a.handedOut() < 100 * KiB, `${a.handedOut()} bytes read for 10`);
  });

  it('holds back the last chunk until the size and CRC-32 check, so a damaged entry never arrives whole', async () => {
    for (const deflate of [false, true]) {
      const a = archiveOf({ name: 'd.bin', data: Buffer.alloc(200 * KiB, 'x'), deflate }, 4 * KiB, (zip, e) => {
        // Stored: one byte changed. Deflated: the CRC-32 in the directory no longer matches.
        if (deflate) e.crc32 = (e.crc32 + 1) >>> 0;
        else zip[e.dataOffset + 150 * KiB] = 0x79;
      });
      const { message, before } = await failure(entryBytes(a.reader, a.entry));
      assert.match(message, /entry "d\.bin" is damaged: its size or CRC-32 disagrees with the directory/);
      assert.ok(before < 200 * KiB, `${before} bytes arrived`);
    }
  });

  it('refuses what inflates past its declared size, before inflating the rest', async () => {
    const a = archiveOf({ name: 'bomb.bin', data: Buffer.alloc(16 * 1024 * KiB), deflate: true }, 1000, (_, e) => {
      e.size = 100 * KiB;
    });
    const { message, before } = await failure(entryBytes(a.reader, a.entry));
    assert.match(message, /entry "bomb\.bin" is damaged: it inflates past its declared size/);
    assert.ok(before <= 100 * KiB);
  });

  it('refuses deflate data that is cut short or garbled; passes failures of the reader on as they are', async () => {
    const cut = archiveOf({ name: 'cut.js', data, deflate: true }, 4 * KiB, (_, e) => {
      e.compressedSize -= 100;
    });
    assert.match(
      (await failure(entryBytes(cut.reader, cut.entry))).message,
      /"cut\.js" is damaged: it does not inflate/,
    );
    const garbled = archiveOf({ name: 'g.js', data, deflate: true }, 4 * KiB, (zip, e) => {
      zip.fill(0xff, e.dataOffset, e.dataOffset + 8);
    });
    assert.match((await failure(entryBytes(garbled.reader, garbled.entry))).message, /it does not inflate/);
    const { entry } = archiveOf({ name: 'x.js', data, deflate: true });
    // eslint-disable-next-line require-yield
    const broken: ArchiveReader = async function* () {
      await Promise.resolve();
      throw new Error('the database went away');
    };
    assert.match((await failure(entryBytes(broken, entry))).message, /^not a refusal: the database went away$/);
  });
});
