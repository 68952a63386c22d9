import assert from 'node:assert/strict';
import sharp from 'sharp';
import { parseImageSize } from '../../lib/media/image-size.js';
import { parseImgprocParams, resolveParams, variantKey } from '../../lib/media/imgproc-params.js';
import { cleanOriginalName, deriveMediaName, originalNameProblems } from '../../lib/media/media-name.js';
import { etagMatches, parseRange } from '../../lib/media/range.js';
import { resolveType, sniffType } from '../../lib/media/sniff-type.js';
import { parseUploadFields } from '../../lib/media/upload-fields.js';
import { compileFilter } from '../../lib/query/translate-filter.js';
import { fileRefs } from '../../lib/objects/write/object-metadata.js';
import { MEDIA_FILTER_CONTEXT } from '../../lib/media/media-list.js';
import type { Metafield } from '../../lib/types/metafield.js';

const bytes = (...values: Array<number | string>) =>
  Buffer.concat(values.map((v) => (typeof v === 'string' ? Buffer.from(v, 'latin1') : Buffer.from([v]))));

const ftyp = (major: string, ...compatible: string[]) => {
  const size = 16 + compatible.length * 4;
  return bytes(0, 0, 0, size, 'ftyp', major, 0, 0, 0, 0, ...compatible);
};

describe('media: type sniffing', () => {
  const cases: Array<[string, Buffer, string | null]> = [
    ['jpeg', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF'), 'image/jpeg'],
    ['png', bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'IHDR'), 'image/png'],
    ['gif87a', bytes('GIF87a', 1, 0, 1, 0), 'image/gif'],
    ['gif89a', bytes('GIF89a', 1, 0, 1, 0), 'image/gif'],
    ['webp', bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '), 'image/webp'],
    ['wav', bytes('RIFF', 0, 0, 0, 0, 'WAVEfmt '), 'audio/wav'],
    ['avif', ftyp('avif', 'mif1', 'miaf'), 'image/avif'],
    ['avif by compatible brand', ftyp('mif1', 'avif'), 'image/avif'],
    ['heic', ftyp('heic', 'mif1'), 'image/heic'],
    ['mp4 isom', ftyp('isom', 'iso2', 'avc1', 'mp41'), 'video/mp4'],
    ['mp4 mp42', ftyp('mp42', 'isom'), 'video/mp4'],
    ['quicktime', ftyp('qt  '), 'video/quicktime'],
    ['pdf', bytes('%PDF-1.7\n'), 'application/pdf'],
    ['zip', bytes('PK', 3, 4, 20, 0), 'application/zip'],
    ['bmp', bytes('BM', 0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0, 40, 0, 0, 0), 'image/bmp'],
    ['text starting with BM', bytes('BMW annual report, page one'), null],
    ['plain text', bytes('hello, world'), null],
    ['too short', bytes(0xff, 0xd8), null],
    ['empty', Buffer.alloc(0), null],
  ];
  for (const [label, head, type] of cases) {
    it(`recognises ${label}`, () => {
      assert.equal(sniffType(head), type);
    });
  }

  it('prefers proven bytes over the client claim, and a claim over nothing', () => {
    const png = bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a);
    assert.equal(resolveType(png, 'text/html', 'evil.html'), 'image/png');
    assert.equal(resolveType(bytes('a,b\n'), 'text/csv', 'x.bin'), 'text/csv');
    assert.equal(resolveType(bytes('a,b\n'), 'application/octet-stream', 'x.csv'), 'text/csv');
    assert.equal(resolveType(bytes('a,b\n'), 'not a mime', 'x'), 'application/octet-stream');
  });

  it('lets a claim narrow a zip container but never turn it into an image', () => {
    const zip = bytes('PK', 3, 4, 20, 0);
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    assert.equal(resolveType(zip, undefined, 'letter.docx'), docx);
    assert.equal(resolveType(zip, 'image/png', 'x.png'), 'application/zip');
    assert.equal(resolveType(zip, undefined, 'archive'), 'application/zip');
  });
});

describe('media: image dimensions from header bytes', () => {
  const noise = (w: number, h: number) => {
    const raw = Buffer.alloc(w * h * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 31) & 0xff;
    return sharp(raw, { raw: { width: w, height: h, channels: 3 } });
  };
  for (const [format, type] of [
    ['png', 'image/png'],
    ['jpeg', 'image/jpeg'],
    ['gif', 'image/gif'],
    ['webp', 'image/webp'],
  ] as const) {
    it(`reads ${format} width and height from the first bytes only`, async () => {
      const file = await noise(321, 123).toFormat(format).toBuffer();
      assert.deepEqual(parseImageSize(type, file.subarray(0, Math.min(file.length, 1024))), {
        width: 321,
        height: 123,
      });
    });
  }
  it('reads lossless and extended WebP too', async () => {
    const lossless = await noise(77, 55).webp({ lossless: true }).toBuffer();
    assert.deepEqual(parseImageSize('image/webp', lossless), { width: 77, height: 55 });
    const alpha = await sharp({
      create: { width: 90, height: 45, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } },
    })
      .webp()
      .toBuffer();
    assert.deepEqual(parseImageSize('image/webp', alpha), { width: 90, height: 45 });
  });
  it('gives null for truncated or foreign bytes', () => {
    assert.equal(parseImageSize('image/png', bytes(0x89, 'PNG')), null);
    assert.equal(parseImageSize('image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0)), null);
    assert.equal(parseImageSize('application/pdf', bytes('%PDF-')), null);
  });
});

describe('media: stored names', () => {
  it('is <hex>-<slug>.<ext> with only safe characters', () => {
    assert.equal(deriveMediaName('Crème Brûlée Photo (1).JPG', 'image/jpeg', 'abcd'), 'abcd-creme-brulee-photo-1.jpg');
    assert.equal(deriveMediaName('../../etc/passwd', 'text/plain', 'ab'), 'ab-passwd.txt');
    assert.equal(deriveMediaName('<script>.html', 'text/html', 'ab'), 'ab-script.html');
    assert.equal(deriveMediaName('', 'image/png', 'ab'), 'ab-file.png');
    assert.equal(deriveMediaName('.hidden', 'application/octet-stream', 'ab'), 'ab-hidden');
    assert.equal(deriveMediaName('weird.ext$$', 'image/png', 'ab'), 'ab-weird.png');
    assert.match(deriveMediaName('x'.repeat(500) + '.png', 'image/png'), /^[0-9a-f]{16}-x{60}\.png$/);
  });
  it('differs between two uploads of the same file name', () => {
    assert.notEqual(deriveMediaName('a.png', 'image/png'), deriveMediaName('a.png', 'image/png'));
  });
  it('keeps the original name readable but free of control characters', () => {
    assert.equal(cleanOriginalName('a\u0000b\r\n.png'), 'ab.png');
    assert.equal(cleanOriginalName(undefined), 'file');
  });
  it('refuses a renamed display name that is blank or holds control characters, naming both', () => {
    assert.deepEqual(originalNameProblems('Summer photo.jpg', 'n'), []);
    assert.deepEqual(originalNameProblems(' \t ', 'n'), [
      'n must have a visible character',
      'n must not contain control characters',
    ]);
    assert.deepEqual(originalNameProblems('a\u007fb', 'n'), ['n must not contain control characters']);
  });
});

describe('media: image processing parameters', () => {
  it('returns null when nothing is asked and ignores foreign parameters', () => {
    assert.equal(parseImgprocParams({}), null);
    assert.equal(parseImgprocParams({ auto: 'format', dpr: '2', w: '' }), null);
  });
  it('parses and normalises w, h, fit, fm, q', () => {
    assert.deepEqual(parseImgprocParams({ w: '100', h: '50', fit: 'CONTAIN', fm: 'jpg', q: '80' }), {
      width: 100,
      height: 50,
      fit: 'contain',
      format: 'jpeg',
      quality: 80,
    });
    assert.deepEqual(parseImgprocParams({ w: '10', fit: 'crop' }), { width: 10, fit: 'cover' });
    assert.deepEqual(parseImgprocParams({ w: '10', crop: 'cover' }), { width: 10, fit: 'cover' });
    assert.deepEqual(parseImgprocParams({ w: '10', crop: 'faces' }), { width: 10 });
  });
  it('reports every invalid value in one 400', () => {
    assert.throws(
      () => parseImgprocParams({ w: '0', h: '4001', fit: 'squash', fm: 'bmp', q: '1.5' }),
      (err: Error & { status?: number }) =>
        err.status === 400 &&
        ['w must', 'h must', 'fit must', 'fm must', 'q must'].every((p) => err.message.includes(p)),
    );
    assert.throws(() => parseImgprocParams({ w: ['1', '2'] }), /w must be given once/);
    assert.throws(() => parseImgprocParams({ w: '-5' }), /w must be an integer from 1 to 4000/);
  });
  it('keys equivalent requests to one variant', () => {
    const key = (q: Record<string, string>, type = 'image/png') =>
      variantKey(resolveParams(parseImgprocParams(q)!, type));
    assert.equal(key({ w: '100', fit: 'contain' }), key({ w: '100' }));
    assert.equal(key({ w: '100', fm: 'png', q: '50' }), key({ w: '100' }));
    assert.notEqual(key({ w: '100', h: '100', fit: 'contain' }), key({ w: '100', h: '100' }));
    assert.equal(key({ w: '5' }, 'image/jpeg'), 'w=5&h=&fit=cover&fm=jpeg&q=');
    assert.equal(key({ w: '5' }, 'image/tiff'), 'w=5&h=&fit=cover&fm=png&q=');
  });
});

describe('media: Range and If-None-Match', () => {
  it('parses single byte ranges', () => {
    assert.deepEqual(parseRange('bytes=0-9', 100), { start: 0, end: 9 });
    assert.deepEqual(parseRange('bytes=90-', 100), { start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=-10', 100), { start: 90, end: 99 });
    assert.deepEqual(parseRange('bytes=-500', 100), { start: 0, end: 99 });
    assert.deepEqual(parseRange('bytes=50-500', 100), { start: 50, end: 99 });
  });
  it('is unsatisfiable past the end, and ignored when malformed or multiple', () => {
    assert.equal(parseRange('bytes=100-', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 100), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-1', 0), 'unsatisfiable');
    assert.equal(parseRange('bytes=9-1', 100), null);
    assert.equal(parseRange('bytes=0-1,5-6', 100), null);
    assert.equal(parseRange('items=0-1', 100), null);
    assert.equal(parseRange(undefined, 100), null);
  });
  it('matches ETags weakly, in lists and by *', () => {
    assert.ok(etagMatches('"a", W/"b"', '"b"'));
    assert.ok(etagMatches('*', '"x"'));
    assert.ok(!etagMatches('"a"', '"b"'));
    assert.ok(!etagMatches(undefined, '"b"'));
  });
});

describe('media: upload form fields', () => {
  it('parses folder, metadata JSON, alt_text and trigger_webhook', () => {
    assert.deepEqual(
      parseUploadFields({
        folder: ' trips ',
        metadata: '{"a":{"b":1}}',
        alt_text: 'Sea',
        trigger_webhook: 'true',
        write_key: 'k',
      }),
      {
        folder: 'trips',
        alt_text: 'Sea',
        metadata: { a: { b: 1 } },
        trigger_webhook: true,
      },
    );
    assert.deepEqual(parseUploadFields(undefined), {
      folder: null,
      alt_text: '',
      metadata: {},
      trigger_webhook: false,
    });
    assert.deepEqual(parseUploadFields({ metadata: { caption: 'bracketed' } }).metadata, { caption: 'bracketed' });
  });
  it('reports every bad field in one 400', () => {
    assert.throws(
      () => parseUploadFields({ metadata: '"text"', folder: ['a', 'b'], trigger_webhook: 'yes', extra: '1' }),
      (err: Error) =>
        [
          'metadata must be a JSON object',
          'form field "folder" must be given once',
          'trigger_webhook must be',
          'unknown form field(s) "extra"',
        ].every((p) => err.message.includes(p)),
    );
    assert.throws(() => parseUploadFields({ metadata: '{"a.b": 1}' }), /may not start with "\$" or contain "\."/);
  });
});

describe('media: file Metafield references and the media query keys', () => {
  const mfs: Metafield[] = [
    { type: 'file', title: 'C', key: 'cover', media_validation_type: 'image' },
    { type: 'parent', title: 'S', key: 'seo', children: [{ type: 'file', title: 'O', key: 'og' }] },
    { type: 'repeater', title: 'R', key: 'slides', repeater_fields: [{ type: 'file', title: 'I', key: 'image' }] },
    { type: 'text', title: 'T', key: 'caption' },
  ];
  it('finds every non-empty file value with its path', () => {
    assert.deepEqual(
      fileRefs(mfs, {
        cover: 'a.png',
        seo: { og: 'b.png' },
        slides: [{ image: '' }, { image: 'c.png' }],
        caption: 'd.png',
      }),
      [
        { path: 'cover', name: 'a.png', mediaType: 'image' },
        { path: 'seo.og', name: 'b.png', mediaType: undefined },
        { path: 'slides.1.image', name: 'c.png', mediaType: undefined },
      ],
    );
  });
  it('translates media keys to stored fields', () => {
    const filter = compileFilter(
      JSON.stringify({ created: { $gte: '2024-01-01' }, size: { $gt: 10 }, 'metadata.tag': 'x' }),
      MEDIA_FILTER_CONTEXT,
    );
    assert.deepEqual(filter, {
      created_at: { $gte: new Date('2024-01-01T00:00:00Z') },
      size: { $gt: 10 },
      'metadata.tag': 'x',
    });
    assert.throws(
      () => compileFilter(JSON.stringify({ status: 'published' }), MEDIA_FILTER_CONTEXT),
      /unknown key "status"/,
    );
    assert.throws(
      () => compileFilter(JSON.stringify({ size: { $regex: '1' } }), MEDIA_FILTER_CONTEXT),
      /not to numbers/,
    );
  });
});
