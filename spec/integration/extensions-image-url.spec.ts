import assert from 'node:assert/strict';
import request from 'supertest';
import { extensionsCollection } from '../../lib/store/extensions.js';
import { extensionFixture, type ExtensionFixture } from '../support/extension-harness.js';
import { extensionZip } from '../support/zip-builder.js';

const BASES = ['/v1/icons/extensions', '/v2/buckets/icons/extensions'];

/** Addresses a browser would run or render as a document, or that name no web resource. */
const REFUSED = [
  'javascript:alert(document.domain)',
  ' JavaScript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:image/svg+xml;base64,PHN2Zy8+',
  'vbscript:msgbox(1)',
  'ftp://cdn.example/i.png',
  '//cdn.example/i.png',
  '/img/icon.png',
  'https://user:pw@cdn.example/i.png',
];

describe('Extensions: image_url takes only http and https addresses', () => {
  let f: ExtensionFixture;
  before(async () => {
    f = await extensionFixture('icons');
  });
  after(() => {
    f.sites.close();
    assert.deepEqual(f.h.errors, []);
  });

  const refusedAs = (res: request.Response, value: string) => {
    assert.equal(res.status, 400, `${value}: ${res.status} ${JSON.stringify(res.body)}`);
    assert.equal(res.body.code, 'invalid_body');
    assert.equal(res.body.status, 400);
    assert.match(res.body.message, /image_url/);
  };

  it('refuses other schemes on every install form, keeping nothing', async () => {
    const before = await extensionsCollection(f.h.db).countDocuments({});
    for (const base of BASES) {
      for (const image_url of REFUSED) {
        const post = () => request(f.app).post(base).set('Authorization', f.admin);
        refusedAs(await post().field('image_url', image_url).attach('zip', extensionZip(), 'a.zip'), image_url);
        refusedAs(await post().send({ zip_url: `${f.sites.http}/ext.zip`, image_url }), image_url);
        refusedAs(await post().send({ title: 'Page', url: `${f.sites.https}/open`, image_url }), image_url);
      }
    }
    assert.equal(await extensionsCollection(f.h.db).countDocuments({}), before);
  });

  it('refuses other schemes on edit, leaving the stored icon as it was', async () => {
    for (const base of BASES) {
      const added = await request(f.app)
        .post(base)
        .set('Authorization', f.admin)
        .send({ title: 'Page', url: `${f.sites.https}/open`, image_url: 'https://cdn.example/i.png' })
        .expect(200);
      const id = added.body.extension.id as string;
      for (const image_url of REFUSED) {
        const res = await request(f.app)
          .put(`${base}/${id}`)
          .set('Authorization', f.admin)
          .send({ title: 'Changed', image_url });
        refusedAs(res, image_url);
      }
      const list = await request(f.app).get(base).set('Authorization', f.admin).expect(200);
      const kept = (list.body.extensions as { id: string; title: string; image_url: string }[]).find(
        (e) => e.id === id,
      );
      assert.deepEqual([kept?.title, kept?.image_url], ['Page', 'https://cdn.example/i.png']);
    }
  });

  it('takes https and http addresses, and null or empty for no icon', async () => {
    const base = BASES[1] ?? '';
    const zip = await request(f.app)
      .post(base)
      .set('Authorization', f.admin)
      .field('image_url', 'http://cdn.example/zip.png')
      .attach('zip', extensionZip(), 'a.zip')
      .expect(200);
    assert.equal(zip.body.extension.image_url, 'http://cdn.example/zip.png');
    const fromUrl = await request(f.app)
      .post(base)
      .set('Authorization', f.admin)
      .send({ zip_url: `${f.sites.http}/ext.zip`, image_url: 'HTTPS://CDN.example/z.png' })
      .expect(200);
    assert.equal(fromUrl.body.extension.image_url, 'https://cdn.example/z.png');
    const id = zip.body.extension.id as string;
    for (const image_url of [null, '', 'https://cdn.example/new.png']) {
      const edited = await request(f.app)
        .put(`${base}/${id}`)
        .set('Authorization', f.admin)
        .send({ image_url })
        .expect(200);
      assert.equal(edited.body.extension.image_url, image_url);
    }
  });
});
