import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { forgetCosmicV1Token, loadCosmicV1, type V1Bucket } from '../support/cosmic-v1.js';
import { extensionFixture, type ExtensionFixture } from '../support/extension-harness.js';
import { buildZip, extensionZip } from '../support/zip-builder.js';

interface Ext {
  id: string;
  title: string;
  url: string | null;
  zip_url: string | null;
  query_params: { key: string; value: string }[];
}

/** The unchanged cosmicjs 3.4.4 client's extension methods against the service (it answers error bodies as values). */
describe('Extensions through the cosmicjs 3.4.4 client', () => {
  let f: ExtensionFixture;
  let server: http.Server;
  let bucket: V1Bucket;
  before(async () => {
    f = await extensionFixture('legacy');
    server = http.createServer(f.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const Cosmic = loadCosmicV1(`http://127.0.0.1:${String(port)}`);
    // The client sends its token bare, as Authorization: <token>.
    bucket = Cosmic({ token: f.admin.replace(/^Bearer /, '') }).bucket({ slug: 'legacy', write_key: 'legacy-write' });
  });
  after(() => {
    forgetCosmicV1Token();
    server.close();
    f.sites.close();
    assert.deepEqual(f.h.errors, []);
  });

  it('getExtensions, addExtension (zip buffer, zip_url, title + url), editExtension, deleteExtension', async () => {
    assert.deepEqual(await bucket.getExtensions(), { extensions: [] });
    const zip = extensionZip();
    const fromUpload = (await bucket.addExtension({ zip: { buffer: zip, originalname: 'charts.zip' } })) as {
      extension: Ext;
    };
    assert.equal(fromUpload.extension.title, 'charts');
    assert.match(fromUpload.extension.zip_url ?? '', /\/v1\/legacy\/extensions\/[0-9a-f]{24}\/archive$/);
    const fromUrl = (await bucket.addExtension({ zip_url: `${f.sites.http}/ext.zip` })) as { extension: Ext };
    assert.equal(fromUrl.extension.zip_url, `${f.sites.http}/ext.zip`);
    const framed = (await bucket.addExtension({ title: 'Page', url: `${f.sites.https}/open` })) as { extension: Ext };
    assert.equal(framed.extension.url, `${f.sites.https}/open`);

    const edited = (await bucket.editExtension({
      id: framed.extension.id,
      title: 'Renamed',
      query_params: [{ key: 'token', value: 'abc' }],
    })) as { extension: Ext };
    assert.equal(edited.extension.title, 'Renamed');
    const listed = (await bucket.getExtensions()) as { extensions: Ext[] };
    assert.deepEqual(
      listed.extensions.map((e) => [e.title, e.url?.replace(/[0-9a-f]{24}/, 'ID')]),
      [
        ['charts', 'http://api.test/v1/legacy/extensions/ID/files/index.html'],
        ['ext', 'http://api.test/v1/legacy/extensions/ID/files/index.html'],
        ['Renamed', `${f.sites.https}/open?token=abc`],
      ],
    );

    const deleted = (await bucket.deleteExtension({ id: fromUpload.extension.id })) as { message: string };
    assert.match(deleted.message, /deleted/);
    assert.equal(((await bucket.getExtensions()) as { extensions: Ext[] }).extensions.length, 2);
  });

  it('answers refusals as the error body: a zip-slip archive, a page that forbids framing', async () => {
    const slip = (await bucket.addExtension({
      zip: { buffer: buildZip([{ name: '../evil', data: 'x' }]), originalname: 'e.zip' },
    })) as {
      status: number;
      code: string;
    };
    assert.deepEqual([slip.status, slip.code], [400, 'extension_zip_invalid']);
    const deny = (await bucket.addExtension({ title: 'D', url: `${f.sites.https}/deny` })) as {
      status: number;
      code: string;
    };
    assert.deepEqual([deny.status, deny.code], [400, 'extension_unframeable']);
  });
});
