import assert from 'node:assert/strict';
import request from 'supertest';
import { extensionsCollection } from '../../lib/store/extensions.js';
import { extensionFixture, type ExtensionFixture } from '../support/extension-harness.js';
import { buildZip } from '../support/zip-builder.js';

const SCRIPT = 'document.title = "from the archive";\n'.repeat(50);

describe("Extensions: serving a kept archive's files", () => {
  let f: ExtensionFixture;
  let files: string;
  before(async () => {
    f = await extensionFixture('pages', { EXTENSION_MAX_UNPACKED_BYTES: '100000' });
    const zip = buildZip([
      { name: 'index.html', data: '<!doctype html><script src="js/app.js"></script>' },
      { name: 'js/app.js', data: SCRIPT, deflate: true },
      { name: 'img/', data: '' },
      { name: 'img/logo.svg', data: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
    ]);
    const added = await request(f.app)
      .post('/v2/buckets/pages/extensions')
      .set('Authorization', f.admin)
      .attach('zip', zip, 'site.zip')
      .expect(200);
    const url = added.body.extension.url as string;
    assert.match(url, /^http:\/\/api\.test\/v2\/buckets\/pages\/extensions\/[0-9a-f]{24}\/files\/index\.html$/);
    files = url.replace('http://api.test', '').replace(/index\.html$/, '');
  });
  after(() => {
    f.sites.close();
    assert.deepEqual(f.h.errors, []);
  });

  it('serves stored and deflated entries without a credential, sandboxed, typed by extension', async () => {
    // The query_params the page is served with do not disturb it.
    const page = await request(f.app).get(`${files}index.html?api_key=k&limit=x&read_key=y`).expect(200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.match(page.headers['content-security-policy'] ?? '', /^sandbox allow-scripts/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.match(page.text, /js\/app\.js/);
    const script = await request(f.app).get(`${files}js/app.js`).expect(200);
    assert.equal(script.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(script.text, SCRIPT);
    const svg = await request(f.app).get(`${files}img/logo.svg`).expect(200);
    assert.equal(svg.headers['content-type'], 'image/svg+xml');
    // The same files under the v1 path; a folder path opens its index.html, if it has one.
    const v1 = files.replace('/v2/buckets/pages/', '/v1/pages/');
    assert.equal((await request(f.app).get(`${v1}js/app.js`).expect(200)).text, SCRIPT);
    await request(f.app).get(`${v1}img/`).expect(404);
  });

  it('serves a page with the query_params set on edit appended to its url; the key pretty is reserved', async () => {
    const id = /extensions\/([0-9a-f]{24})\//.exec(files)?.[1] ?? '';
    const edit = (query_params: { key: string; value: string }[]) =>
      request(f.app).put(`/v2/buckets/pages/extensions/${id}`).set('Authorization', f.admin).send({ query_params });
    const reserved = await edit([{ key: 'pretty', value: 'x' }]).expect(400);
    assert.match(reserved.body.message, /may not use the key "pretty"/);
    const edited = await edit([{ key: 'theme', value: 'dark' }]).expect(200);
    const url = edited.body.extension.url as string;
    assert.match(url, /\/files\/index\.html\?theme=dark$/);
    await request(f.app).get(url.replace('http://api.test', '')).expect(200);
  });

  it('answers 404 for names the archive does not have, and for another Bucket', async () => {
    for (const missing of ['nope.js', '..%2F..%2Fetc%2Fpasswd', 'JS/APP.JS']) {
      const res = await request(f.app).get(`${files}${missing}`).expect(404);
      assert.equal(res.body.code, 'not_found');
    }
    await f.h.bucket('elsewhere');
    await request(f.app)
      .get(files.replace('/pages/', '/elsewhere/') + 'index.html')
      .expect(404);
  });

  it('refuses an archive whose entries do not unpack as declared, or unpack past the cap', async () => {
    const bomb = buildZip([{ name: 'zeros.bin', data: Buffer.alloc(150_000), deflate: true }]);
    const lying = buildZip([{ name: 'a.txt', data: 'hello world', deflate: true }]);
    const central = lying.readUInt32LE(lying.length - 6);
    lying.writeUInt32LE(3, central + 24); // declared size 3; it inflates to 11 bytes
    lying.writeUInt32LE(3, 22); // the local header agrees, as a crafted archive would
    const crc = buildZip([{ name: 'a.txt', data: 'hello' }]);
    crc.write('j', 30 + 'a.txt'.length); // one stored byte changed: its CRC-32 no longer matches
    const cases: [Buffer, RegExp][] = [
      [bomb, /unpacks to 150000 bytes, over the 100000-byte cap/],
      [lying, /entry "a\.txt" is damaged: it inflates past its declared size/],
      [crc, /entry "a\.txt" is damaged: its size or CRC-32 disagrees/],
    ];
    const before = await extensionsCollection(f.h.db).countDocuments({});
    for (const [zip, why] of cases) {
      const res = await request(f.app)
        .post('/v1/pages/extensions')
        .set('Authorization', f.admin)
        .attach('zip', zip, 'x.zip')
        .expect(400);
      assert.equal(res.body.code, 'extension_zip_invalid');
      assert.match(res.body.message, why);
    }
    assert.equal(await extensionsCollection(f.h.db).countDocuments({}), before);
  });
});
