import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { extract, pack, type Pack } from 'tar-stream';
import { TarFormatError, walkTar, type TarFile } from '../../lib/migrate/tar-walk.js';

/** A plain tar written by tar-stream, the library that writes bundles and reads gzipped ones. */
async function writeTar(
  file: string,
  entries: { header: Parameters<Pack['entry']>[0]; body?: string }[],
): Promise<void> {
  const out = pack();
  const written = pipeline(out, fs.createWriteStream(file));
  for (const { header, body } of entries) out.entry(header, body ?? '');
  out.finalize();
  await written;
}

async function walk(file: string): Promise<(TarFile & { body: string })[]> {
  const handle = await fs.promises.open(file, 'r');
  try {
    const files: (TarFile & { body: string })[] = [];
    for await (const f of walkTar(handle)) {
      const body = Buffer.alloc(f.size);
      await handle.read(body, 0, f.size, f.offset);
      files.push({ ...f, body: body.toString('utf8') });
    }
    return files;
  } finally {
    await handle.close();
  }
}

/** What tar-stream itself reads from the same tar: the walk must agree with it. */
async function extracted(file: string): Promise<{ name: string; body: string }[]> {
  const entries = extract();
  const reading = pipeline(fs.createReadStream(file), entries);
  const found: { name: string; body: string }[] = [];
  for await (const entry of entries) {
    let body = '';
    for await (const chunk of entry) body += (chunk as Buffer).toString('utf8');
    if (entry.header.type === 'file') found.push({ name: entry.header.name, body });
  }
  await reading;
  return found;
}

describe('walkTar: the files of a plain tar, from their headers alone', () => {
  let dir: string;
  before(async () => {
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'tar-walk-'));
  });
  after(async () => {
    await fs.promises.rm(dir, { recursive: true, force: true });
  });

  it('finds each file with its name (prefix, pax and long names too), size and bytes; passes over directories', async () => {
    const file = path.join(dir, 'names.tar');
    const nested = `${'d'.repeat(120)}/${'n'.repeat(60)}.txt`; // ustar prefix + name
    const long = `media/${'x'.repeat(200)}.bin`; // no split fits: a pax header
    const unicode = 'media/caf\u00e9-\u{1F600}.txt'; // a pax path too
    await writeTar(file, [
      { header: { name: 'manifest.json' }, body: '{"a":1}' },
      { header: { name: 'media', type: 'directory' } },
      { header: { name: nested }, body: 'nested' },
      { header: { name: long }, body: 'long' },
      { header: { name: unicode }, body: 'caf\u00e9' },
      { header: { name: 'empty.ndjson' }, body: '' },
      { header: { name: 'last' }, body: 'z'.repeat(1000) },
    ]);
    const files = await walk(file);
    assert.deepEqual(
      files.map(({ name, body }) => ({ name, body })),
      await extracted(file),
    );
    assert.deepEqual(
      files.map((f) => f.name),
      ['manifest.json', nested, long, unicode, 'empty.ndjson', 'last'],
    );
    assert.deepEqual(
      files.map((f) => f.size),
      [7, 6, 4, 5, 0, 1000],
    );
  });

  it('refuses a tar cut short inside an entry, and bytes that are not a tar', async () => {
    const whole = path.join(dir, 'whole.tar');
    await writeTar(whole, [
      { header: { name: 'a' }, body: 'a'.repeat(2000) },
      { header: { name: 'b' }, body: 'b' },
    ]);
    const cut = path.join(dir, 'cut.tar');
    await fs.promises.writeFile(cut, (await fs.promises.readFile(whole)).subarray(0, 1024));
    await assert.rejects(walk(cut), (err) => err instanceof TarFormatError && /unexpected end/.test(err.message));
    const text = path.join(dir, 'text.tar');
    await fs.promises.writeFile(text, 'hello '.repeat(200));
    await assert.rejects(walk(text), (err) => err instanceof TarFormatError && /invalid tar header/.test(err.message));
  });
});
