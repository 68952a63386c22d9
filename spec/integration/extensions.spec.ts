import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import request from 'supertest';
import { extensionsCollection } from '../../lib/store/extensions.js';
import { account, setMember, tokenOf, PASSWORD_WORK_TIMEOUT_MS } from '../support/accounts.js';
import { extensionFixture, type ExtensionFixture } from '../support/extension-harness.js';
import { extensionZip } from '../support/zip-builder.js';
import type { ExtensionJson } from '../../lib/extensions/serialize.js';

const BASES = ['/v1/tools/extensions', '/v2/buckets/tools/extensions'];

describe('Extensions: install, list, edit, delete (v1 and v2 paths)', function () {
  this.timeout(PASSWORD_WORK_TIMEOUT_MS);
  let f: ExtensionFixture;
  before(async () => {
    f = await extensionFixture('tools');
  });
  after(() => {
    f.sites.close();
    assert.deepEqual(f.h.errors, []);
  });

  it('installs an uploaded zip, keeps it, serves it back at zip_url, lists, edits and deletes it', async () => {
    for (const base of BASES) {
      const zip = extensionZip();
      const added = await request(f.app)
        .post(base)
        .set('Authorization', f.admin)
        .field('font_awesome_class', 'fa-puzzle-piece')
        .attach('zip', zip, 'reports.zip')
        .expect(200);
      const ext = added.body.extension as ExtensionJson;
      assert.deepEqual(Object.keys(ext).sort(), [
        'font_awesome_class',
        'id',
        'image_url',
        'installed_at',
        'query_params',
        'title',
        'url',
        'zip_url',
      ]);
      assert.equal(ext.title, 'reports');
      assert.equal(ext.url, `http://api.test${base}/${ext.id}/files/index.html`);
      assert.equal(ext.font_awesome_class, 'fa-puzzle-piece');
      assert.equal(ext.zip_url, `http://api.test${base}/${ext.id}/archive`);
      const archive = await request(f.app)
        .get(`${base}/${ext.id}/archive`)
        .set('Authorization', f.admin)
        .buffer(true)
        .parse((res, done) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => {
            done(null, Buffer.concat(parts));
          });
        })
        .expect(200)
        .expect('content-type', 'application/zip');
      assert.ok(Buffer.isBuffer(archive.body) && archive.body.equals(zip));
      const list = await request(f.app).get(base).set('Authorization', f.admin).expect(200);
      assert.ok((list.body.extensions as ExtensionJson[]).some((e) => e.id === ext.id));
      const edited = await request(f.app)
        .put(`${base}/${ext.id}`)
        .set('Authorization', f.admin)
        .send({ title: 'Reports', image_url: 'https://cdn.example/r.png' })
        .expect(200);
      assert.deepEqual(
        [edited.body.extension.title, edited.body.extension.image_url],
        ['Reports', 'https://cdn.example/r.png'],
      );
      const gone = await request(f.app).delete(`${base}/${ext.id}`).set('Authorization', f.admin).expect(200);
      assert.match(gone.body.message, /deleted/);
      const missing = await request(f.app).put(`${base}/${ext.id}`).set('Authorization', f.admin).send({}).expect(404);
      assert.equal(missing.body.code, 'extension_not_found');
      assert.equal(
        await f.h.db.collection('extension_archives.files').countDocuments({ _id: new ObjectId(ext.id) }),
        0,
      );
    }
  });

  it('installs from zip_url (downloaded and checked) and from title + https url that allows framing', async () => {
    for (const base of BASES) {
      const fromZip = await request(f.app)
        .post(base)
        .set('Authorization', f.admin)
        .send({ zip_url: `${f.sites.http}/ext.zip` })
        .expect(200);
      assert.deepEqual(
        [fromZip.body.extension.title, fromZip.body.extension.zip_url],
        ['ext', `${f.sites.http}/ext.zip`],
      );
      for (const page of ['/open', '/csp-star', '/redirect-to-open']) {
        const framed = await request(f.app)
          .post(base)
          .set('Authorization', f.admin)
          .send({ title: `Page ${page}`, url: `${f.sites.https}${page}` })
          .expect(200);
        assert.equal(framed.body.extension.url, `${f.sites.https}${page}`);
        assert.equal(framed.body.extension.zip_url, null);
      }
    }
  });

  it('stores query_params as signed tokens and serves them appended to url; a tampered token is not served', async () => {
    for (const base of BASES) {
      const added = await request(f.app)
        .post(base)
        .set('Authorization', f.admin)
        .send({ title: 'Dashboard', url: `${f.sites.https}/open?x=0` })
        .expect(200);
      const id = added.body.extension.id as string;
      const params = [
        { key: 'api_key', value: 's3cret value' },
        { key: 'mode', value: 'a&b' },
      ];
      const edited = await request(f.app)
        .put(`${base}/${id}`)
        .set('Authorization', f.admin)
        .send({ id, write_key: 'ignored', query_params: params })
        .expect(200);
      assert.deepEqual(edited.body.extension.query_params, params);
      const stored = await extensionsCollection(f.h.db).findOne({ _id: new ObjectId(id) });
      assert.equal(stored?.query_params.length, 2);
      assert.ok(stored.query_params.every((t) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(t) && !t.includes('s3cret')));
      const listed = (await request(f.app).get(base).set('Authorization', f.admin).expect(200)).body
        .extensions as ExtensionJson[];
      const served = listed.find((e) => e.id === id);
      assert.equal(served?.url, `${f.sites.https}/open?x=0&api_key=s3cret+value&mode=a%26b`);
      // Forge the second token's payload (keeping its signature): it must not be served.
      const [head = '', , sig = ''] = stored.query_params[1]?.split('.') ?? [];
      const forged = Buffer.from(JSON.stringify({ k: 'mode', v: 'evil', iss: 'content-api' })).toString('base64url');
      await extensionsCollection(f.h.db).updateOne(
        { _id: new ObjectId(id) },
        { $set: { 'query_params.1': `${head}.${forged}.${sig}` } },
      );
      const after = (await request(f.app).get(base).set('Authorization', f.admin).expect(200)).body
        .extensions as ExtensionJson[];
      const tampered = after.find((e) => e.id === id);
      assert.equal(tampered?.url, `${f.sites.https}/open?x=0`);
      assert.deepEqual(tampered.query_params, []);
    }
  });

  it('refuses bodies that match no form, naming the problem', async () => {
    const none = await request(f.app)
      .post(BASES[0] ?? '')
      .set('Authorization', f.admin)
      .send({})
      .expect(400);
    assert.match(none.body.message, /multipart form .* zip, or JSON with zip_url, or JSON with title and url/);
    const noTitle = await request(f.app)
      .post(BASES[1] ?? '')
      .set('Authorization', f.admin)
      .send({ url: `${f.sites.https}/open` })
      .expect(400);
    assert.match(noTitle.body.message, /title is required with url/);
    const both = await request(f.app)
      .post(BASES[0] ?? '')
      .set('Authorization', f.admin)
      .send({ title: 't', url: `${f.sites.https}/open`, zip_url: `${f.sites.http}/ext.zip` })
      .expect(400);
    assert.match(both.body.message, /not both/);
    const unknown = await request(f.app)
      .put(`${BASES[0] ?? ''}/${new ObjectId().toHexString()}`)
      .set('Authorization', f.admin)
      .send({ query_params: [{ key: 'a' }], colour: 'red' })
      .expect(400);
    assert.equal(unknown.body.code, 'invalid_body');
    assert.match(unknown.body.message, /value/);
    assert.match(unknown.body.message, /colour/);
  });

  it('admins write, other users only read, Bucket keys alone are refused', async () => {
    const keys = await f.h.bucket('other');
    const editorId = await account(f.h, 'ed@tools.example');
    await setMember(f.h, 'tools', editorId, {
      role: 'developer',
      publishing_restrictions: null,
      additional_permissions: ['users', 'settings'],
      object_types: [],
    });
    const developer = `Bearer ${await tokenOf(f.h, 'ed@tools.example')}`;
    const stranger =
      (await account(f.h, 'x@else.example', 'other')) && `Bearer ${await tokenOf(f.h, 'x@else.example')}`;
    for (const base of BASES) {
      const ext = (
        await request(f.app)
          .post(base)
          .set('Authorization', f.admin)
          .send({ title: 'A', url: `${f.sites.https}/open` })
      ).body.extension as ExtensionJson;
      await request(f.app).get(base).set('Authorization', developer).expect(200);
      for (const [method, path] of [
        ['post', base],
        ['put', `${base}/${ext.id}`],
        ['delete', `${base}/${ext.id}`],
      ] as const) {
        const call = () => request(f.app)[method](path);
        const refused = await call().set('Authorization', developer).send({ title: 'B' }).expect(403);
        assert.match(refused.body.message, /the developer role may not manage Extensions/);
        await call().set('Authorization', stranger).send({ title: 'B' }).expect(403);
        await call().send({ title: 'B' }).expect(401);
      }
      await request(f.app).get(base).set('Authorization', stranger).expect(403);
      const keyOnly = await request(f.app).get(base).expect(401);
      assert.match(keyOnly.body.message, /account access token/);
      const otherBase = base.replace('tools', 'other');
      await request(f.app)
        .post(otherBase)
        .set('Authorization', `Bearer ${keys.write_key ?? ''}`)
        .send({ title: 'A', url: `${f.sites.https}/open` })
        .expect(401);
      await request(f.app)
        .get(`${otherBase}?read_key=${keys.read_key ?? ''}`)
        .expect(401);
    }
  });

  it('deleting the Bucket deletes its Extensions and their archives', async () => {
    await f.h.bucket('doomed');
    await account(f.h, 'boss@doomed.example', 'doomed');
    const admin = `Bearer ${await tokenOf(f.h, 'boss@doomed.example')}`;
    await request(f.app)
      .post('/v1/doomed/extensions')
      .set('Authorization', admin)
      .attach('zip', extensionZip(), 'a.zip')
      .expect(200);
    const bucket = await f.h.db.collection('buckets').findOne({ slug: 'doomed' });
    assert.ok(bucket);
    const files = f.h.db.collection('extension_archives.files');
    assert.equal(await files.countDocuments({ 'metadata.bucket_id': bucket._id }), 1);
    await request(f.app).delete('/v2/buckets/doomed').set('Authorization', admin).expect(200);
    assert.equal(await extensionsCollection(f.h.db).countDocuments({ bucket_id: bucket._id }), 0);
    assert.equal(await files.countDocuments({ 'metadata.bucket_id': bucket._id }), 0);
  });
});
