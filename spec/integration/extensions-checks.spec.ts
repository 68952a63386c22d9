import assert from 'node:assert/strict';
import request from 'supertest';
import { createApp } from '../../lib/app.js';
import { extensionsCollection } from '../../lib/store/extensions.js';
import { extensionFixture, type ExtensionFixture } from '../support/extension-harness.js';
import { buildZip } from '../support/zip-builder.js';

/** The error body of a refused install, after checking its status and code. */
async function refused(
  f: ExtensionFixture,
  path: string,
  body: Record<string, unknown>,
  code: string,
): Promise<string> {
  const res = await request(f.app).post(path).set('Authorization', f.admin).send(body).expect(400);
  assert.deepEqual([res.body.status, res.body.code], [400, code], JSON.stringify(res.body));
  return res.body.message as string;
}

describe('Extensions: what each install form checks', () => {
  let f: ExtensionFixture;
  before(async () => {
    f = await extensionFixture('checks', { EXTENSION_ZIP_MAX_BYTES: '65536', EXTENSION_ZIP_MAX_ENTRIES: '20' });
  });
  after(() => {
    f.sites.close();
    assert.deepEqual(f.h.errors, []);
  });
  afterEach(async () => {
    // Nothing refused is kept.
    assert.equal(await extensionsCollection(f.h.db).countDocuments({}), 0);
    assert.equal(await f.h.db.collection('extension_archives.files').countDocuments({}), 0);
  });

  it('refuses a url whose page forbids framing: X-Frame-Options or CSP frame-ancestors', async () => {
    const cases: [string, RegExp][] = [
      ['/deny', /X-Frame-Options: DENY/],
      ['/sameorigin', /X-Frame-Options: SAMEORIGIN/],
      ['/allow-from', /X-Frame-Options: ALLOW-FROM/],
      ['/csp-none', /frame-ancestors 'none'/],
      ['/csp-self', /frame-ancestors 'self'/],
      ['/csp-hosts', /frame-ancestors https:\/\/a\.example https:\/\/b\.example/],
    ];
    for (const [page, why] of cases) {
      for (const path of ['/v1/checks/extensions', '/v2/buckets/checks/extensions']) {
        const message = await refused(f, path, { title: 't', url: `${f.sites.https}${page}` }, 'extension_unframeable');
        assert.match(message, why, page);
        assert.match(message, /cannot be shown in the dashboard's frame/);
      }
    }
  });

  it('refuses a url whose framing cannot be checked, saying why: timeout, TLS, blocked address, DNS, status', async () => {
    const path = '/v1/checks/extensions';
    const cases: [string, RegExp][] = [
      [`${f.sites.https}/slow`, /did not answer within 1500 ms/],
      // https spoken to a plain http server: the TLS handshake fails.
      [f.sites.http.replace('http:', 'https:') + '/open', /could not be reached/],
      ['https://169.254.169.254/latest/meta-data', /link-local, metadata or reserved address/],
      ['https://name.invalid/', /could not be resolved/],
      [`${f.sites.https}/missing`, /answered HTTP 404/],
    ];
    for (const [url, why] of cases) {
      const message = await refused(f, path, { title: 't', url }, 'extension_fetch_failed');
      assert.match(message, /could not be checked for framing/, url);
      assert.match(message, why, url);
    }
    assert.match(
      await refused(f, path, { title: 't', url: `${f.sites.http}/open` }, 'invalid_body'),
      /url must be an absolute https URL/,
    );
  });

  it('does not trust the test certificate unless told to, nor private addresses unless allowed', async () => {
    const strict = createApp({ config: f.h.config, db: f.h.db, log: (m) => f.h.errors.push(m) });
    const untrusted = await request(strict)
      .post('/v1/checks/extensions')
      .set('Authorization', f.admin)
      .send({ title: 't', url: `${f.sites.https}/open` })
      .expect(400);
    assert.match(untrusted.body.message, /self-signed certificate/);
    const config = { ...f.h.config, webhooks: { ...f.h.config.webhooks, allowPrivate: false } };
    const closed = createApp({ config, db: f.h.db, log: (m) => f.h.errors.push(m), outboundCa: f.sites.ca });
    const privateRefused = await request(closed)
      .post('/v1/checks/extensions')
      .set('Authorization', f.admin)
      .send({ zip_url: `${f.sites.http}/ext.zip` })
      .expect(400);
    assert.match(privateRefused.body.message, /127\.0\.0\.1 is a loopback or private address/);
  });

  it('refuses a zip_url that is not http(s), unreachable, not a zip, unsafe or too large', async () => {
    const path = '/v2/buckets/checks/extensions';
    assert.match(await refused(f, path, { zip_url: 'ftp://example.com/a.zip' }, 'invalid_body'), /http or https URL/);
    const big = await refused(f, path, { zip_url: `${f.sites.http}/big.zip` }, 'extension_fetch_failed');
    assert.match(big, /could not be downloaded: its answer is \d+ bytes, over the 65536-byte cap/);
    const closedPort = 'http://127.0.0.1:9/ext.zip';
    assert.match(await refused(f, path, { zip_url: closedPort }, 'extension_fetch_failed'), /could not be reached/);
    const cases: [string, RegExp][] = [
      ['/not-a-zip.zip', /not a zip archive: no end-of-central-directory record/],
      ['/evil.zip', /entry "\.\.\/\.\.\/evil\.sh" contains a "\.\." segment \(zip slip\)/],
    ];
    for (const [at, why] of cases) {
      const message = await refused(f, path, { zip_url: `${f.sites.http}${at}` }, 'extension_zip_invalid');
      assert.match(message, why);
    }
  });

  it('refuses uploads that are zip slip, absolute, truncated, not a zip, or over a cap', async () => {
    const upload = (zip: Buffer, name = 'x.zip') =>
      request(f.app).post('/v1/checks/extensions').set('Authorization', f.admin).attach('zip', zip, name);
    const cases: [Buffer, RegExp][] = [
      [buildZip([{ name: '../evil', data: 'x' }]), /"\.\.\/evil" contains a "\.\." segment \(zip slip\)/],
      [buildZip([{ name: '/etc/cron.d/evil', data: 'x' }]), /has an absolute path/],
      [buildZip([{ name: 'ok.txt', data: 'x'.repeat(500) }]).subarray(0, 300), /truncated/],
      [Buffer.from('PK but not really a zip archive'), /not a zip archive/],
      [
        buildZip(Array.from({ length: 21 }, (_, i) => ({ name: `f${String(i)}`, data: 'x' }))),
        /21 entries, over the 20-entry cap/,
      ],
      [buildZip([{ name: 'big.bin', data: Buffer.alloc(70_000, 1) }]), /over the 65536-byte cap/],
    ];
    for (const [zip, why] of cases) {
      const res = await upload(zip).expect(400);
      assert.equal(res.body.code, 'extension_zip_invalid');
      assert.match(res.body.message, why);
    }
    const wrongField = await request(f.app)
      .post('/v1/checks/extensions')
      .set('Authorization', f.admin)
      .attach('archive', buildZip([{ name: 'a', data: 'b' }]), 'a.zip')
      .expect(400);
    assert.match(wrongField.body.message, /file field "zip"/);
  });
});
