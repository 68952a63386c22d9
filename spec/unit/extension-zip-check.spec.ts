import assert from 'node:assert/strict';
import { checkZip, entryNameProblem, ZipRefusal } from '../../lib/store/zip-check.js';
import { buildZip, extensionZip } from '../support/zip-builder.js';

const LIMITS = { maxBytes: 1024 * 1024, maxEntries: 10 };

function refusal(buf: Buffer, limits = LIMITS): string {
  try {
    checkZip(buf, limits);
  } catch (err) {
    assert.ok(err instanceof ZipRefusal, String(err));
    return err.message;
  }
  return assert.fail('the archive was accepted');
}

describe('extension zip checker', () => {
  it('accepts a valid archive and locates each entry', () => {
    const zip = extensionZip();
    const entries = checkZip(zip, LIMITS);
    assert.deepEqual(
      entries.map((e) => [e.name, e.method]),
      [
        ['index.html', 0],
        ['app.js', 8],
      ],
    );
    const index = entries[0];
    assert.ok(index);
    assert.equal(
      zip
        .subarray(index.dataOffset, index.dataOffset + index.size)
        .toString()
        .slice(0, 15),
      '<!doctype html>',
    );
  });

  it('accepts an end record followed by its comment', () => {
    const zip = extensionZip();
    const comment = Buffer.from('made by hand');
    zip.writeUInt16LE(comment.length, zip.length - 2);
    assert.equal(checkZip(Buffer.concat([zip, comment]), LIMITS).length, 2);
  });

  it('refuses zip slip: a ../ segment, a backslash one, or one in the middle', () => {
    for (const name of ['../evil.sh', '..\\evil.bat', 'a/../../evil', 'ok/..']) {
      assert.match(refusal(buildZip([{ name, data: 'x' }])), /contains a "\.\." segment \(zip slip\)/, name);
    }
  });

  it('refuses absolute paths and drive letters', () => {
    for (const name of ['/etc/passwd', '\\windows\\x', 'C:\\evil', 'c:evil']) {
      assert.match(refusal(buildZip([{ name, data: 'x' }])), /has an absolute path/, name);
    }
  });

  it('refuses a NUL in a name, and allows names that only look like dots', () => {
    assert.match(refusal(buildZip([{ name: 'a\0b', data: 'x' }])), /NUL/);
    for (const name of ['..a', 'a..', '.hidden', 'dir/...']) assert.equal(entryNameProblem(name), null, name);
  });

  it('refuses a truncated archive', () => {
    const zip = extensionZip();
    assert.match(refusal(zip.subarray(0, zip.length - 10)), /no end-of-central-directory record/);
    assert.match(refusal(zip.subarray(0, Math.floor(zip.length / 2))), /no end-of-central-directory record/);
  });

  it('refuses an entry whose data runs into the central directory', () => {
    const zip = extensionZip();
    const directory = zip.readUInt32LE(zip.length - 6);
    // The first central entry's compressed size, grown past where the directory begins.
    zip.writeUInt32LE(directory + 100, directory + 20);
    assert.match(refusal(zip), /entry "index\.html" is truncated/);
  });

  it('refuses a non-zip named .zip, and an empty buffer', () => {
    assert.match(refusal(Buffer.from('<html>this is not a zip</html>'.repeat(3))), /not a zip archive/);
    assert.match(refusal(Buffer.alloc(0)), /not a zip archive: too short/);
  });

  it('refuses a central entry whose local header is missing or disagrees', () => {
    const zip = extensionZip();
    zip.writeUInt32LE(0x12345678, 0);
    assert.match(refusal(zip), /entry "index\.html": no local file header at offset 0/);
    const renamed = extensionZip();
    renamed.write('INDEX', 30);
    assert.match(refusal(renamed), /local header disagrees with the central directory/);
  });

  it('refuses too many entries and too many bytes', () => {
    const many = buildZip(Array.from({ length: 11 }, (_, i) => ({ name: `f${i}.txt`, data: 'x' })));
    assert.match(refusal(many), /has 11 entries, over the 10-entry cap/);
    assert.match(refusal(extensionZip(), { maxBytes: 100, maxEntries: 10 }), /over the 100-byte cap/);
  });

  it('refuses duplicate names, encrypted entries and unknown methods', () => {
    assert.match(
      refusal(
        buildZip([
          { name: 'a', data: '1' },
          { name: 'a', data: '2' },
        ]),
      ),
      /appears twice/,
    );
    const encrypted = buildZip([{ name: 'a', data: '1' }]);
    const central = encrypted.readUInt32LE(encrypted.length - 6);
    encrypted.writeUInt16LE(0x801, central + 8);
    assert.match(refusal(encrypted), /is encrypted/);
    const lzma = buildZip([{ name: 'a', data: '1' }]);
    lzma.writeUInt16LE(14, lzma.readUInt32LE(lzma.length - 6) + 10);
    assert.match(refusal(lzma), /compression method 14/);
  });
});
