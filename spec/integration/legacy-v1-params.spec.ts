import assert from 'node:assert/strict';
import request from 'supertest';
import { BucketSuite } from '../support/bucket-suite.js';

interface V1Obj {
  _id: string;
  slug: string;
  title: string;
  locale: string | null;
  metadata: Record<string, unknown>;
}

/**
 * The v1 parameters and body forms the cosmicjs 3.4.4 client cannot send (or sends only one
 * way), through HTTP: locale, created_by, escaping of q, repeated and malformed parameters,
 * the Bearer key, the body form of delete, trigger_webhook in the query.
 */
describe('legacy v1 parameters and body forms beyond the client', () => {
  const ids: Record<string, string> = {};
  const read = (path: string) =>
    request(suite.harness.app).get(
      `/v1/v1params${path}${path.includes('?') ? '&' : '?'}read_key=${suite.keys.read_key ?? ''}`,
    );
  const bearer = () => `Bearer ${suite.keys.write_key ?? ''}`;
  const write = (method: 'post' | 'put' | 'patch' | 'delete', path: string, body: object) => {
    const agent = request(suite.harness.app);
    return agent[method](`/v1/v1params${path}`).send({ ...body, write_key: suite.keys.write_key });
  };
  const slugsOf = (res: request.Response) => (res.body as { objects: V1Obj[] }).objects.map((o) => o.slug);

  const suite = new BucketSuite('v1params', async () => {
    await write('post', '/add-object-type', {
      title: 'Pages',
      slug: 'pages',
      localization: true,
      locales: ['en', 'fr'],
      priority_locale: 'en',
      metafields: [{ type: 'objects', title: 'Links', key: 'links', object_type: 'pages', value: '' }],
    }).expect(200);
    for (const [title, locale] of [
      ['a.c', 'en'],
      ['abc', 'en'],
      ['a.c', 'fr'],
    ] as const) {
      const res = await write('post', '/add-object', { type_slug: 'pages', title, locale }).expect(200);
      ids[`${title}/${locale}`] = (res.body as { object: V1Obj }).object._id;
    }
  });

  it('locale narrows lists and the single read; created_by filters by author', async () => {
    const fr = await read('/objects?locale=fr').expect(200);
    assert.deepEqual(
      (fr.body as { objects: V1Obj[] }).objects.map((o) => [o.title, o.locale]),
      [['a.c', 'fr']],
    );
    const one = await read('/object/a-c?locale=fr').expect(200);
    assert.equal((one.body as { object: V1Obj }).object._id, ids['a.c/fr']);
    const nobody = await read('/objects?created_by=5f0000000000000000000000').expect(404);
    assert.equal(nobody.body.code, 'no_match');
  });

  it('q is taken literally: regex characters match themselves, and a long q is a 400 naming q', async () => {
    const dot = await read(`/objects?locale=en&q=${encodeURIComponent('a.c')}`).expect(200);
    assert.deepEqual(slugsOf(dot), ['a-c']);
    await read(`/objects?q=${encodeURIComponent('^a')}`).expect(404);
    await read(`/objects?q=${encodeURIComponent('(')}`).expect(404);
    const long = await read(`/objects?q=${'.'.repeat(200)}`).expect(400);
    assert.match(long.body.message, /q is too long: at most 256 characters/);
  });

  it('metadata[key]: one id is an equality, comma-separated ids match any of them', async () => {
    const [ac = '', abc = ''] = [ids['a.c/en'], ids['abc/en']];
    await write('put', '/edit-object', { id: ac, metafields: [{ key: 'links', type: 'objects', value: abc }] }).expect(
      200,
    );
    assert.deepEqual(slugsOf(await read(`/objects?metadata[links]=${abc}`).expect(200)), ['a-c']);
    const any = await read(`/objects?metadata[links]=${ac},${abc}`).expect(200);
    assert.deepEqual(slugsOf(any), ['a-c']);
    await read(`/objects?metadata[links]=${ac}`).expect(404);
  });

  it('answers every malformed parameter in one 400 with the error body', async () => {
    const res = await read(
      '/objects?type=a&type=b&hide_metafields=maybe&sort=-title&filters[title]=x&metafield_key=k&props=a$b',
    ).expect(400);
    assert.deepEqual(Object.keys(res.body as object).sort(), ['code', 'message', 'status']);
    assert.equal(res.body.code, 'invalid_parameter');
    for (const part of [
      /type must be given once/,
      /hide_metafields must be true or false, got "maybe"/,
      /sort must be one of/,
      /filters\[title\] is not a filter/,
      /metafield_key goes with exactly one of/,
      /props: "a\$b"/,
    ])
      assert.match(res.body.message, part);
    assert.match((await read('/objects?depth=4').expect(400)).body.message, /depth must be an integer from 0 to 3/);
    assert.match((await read('/objects?use_cache=maybe').expect(400)).body.message, /use_cache must be true or false/);
    const badId = await read('/objects?filters[_id]=not-an-id').expect(400);
    assert.equal(badId.body.status, 400);
  });

  it('status=any is accepted as all; sort order and -order follow the Objects order', async () => {
    assert.equal((await read('/objects?status=any').expect(200)).body.total, 3);
    const asc = slugsOf(await read('/objects?locale=en&sort=order').expect(200));
    const desc = slugsOf(await read('/objects?locale=en&sort=-order').expect(200));
    assert.deepEqual(asc, ['a-c', 'abc']);
    assert.deepEqual(desc, ['abc', 'a-c']);
  });

  it('writes take the write key as Bearer too; a wrong one is a 401 with the error body', async () => {
    const ok = await request(suite.harness.app)
      .post('/v1/v1params/add-object')
      .set('Authorization', bearer())
      .send({ type_slug: 'pages', title: 'Keyed', locale: 'en' })
      .expect(200);
    ids.keyed = (ok.body as { object: V1Obj }).object._id;
    const wrong = await request(suite.harness.app)
      .post('/v1/v1params/add-object')
      .set('Authorization', 'Bearer nope')
      .send({ type_slug: 'pages', title: 'x', locale: 'en' })
      .expect(401);
    assert.equal(wrong.body.code, 'unauthorized');
  });

  it('edit-object-metafields refuses fields it would not apply; bodies refuse a non-boolean trigger_webhook', async () => {
    const extra = await write('patch', '/edit-object-metafields', { slug: 'keyed', title: 'x', metafields: [] });
    assert.equal(extra.status, 400);
    assert.match(extra.body.message, /not title: use edit-object/);
    const none = await write('patch', '/edit-object-metafields', { slug: 'keyed' }).expect(400);
    assert.match(none.body.message, /metafields is required/);
    const flag = await write('put', '/edit-object', { slug: 'keyed', title: 'y', trigger_webhook: 'yes' }).expect(400);
    assert.match(flag.body.message, /trigger_webhook must be true or false/);
    const noName = await write('put', '/edit-object', { title: 'y' }).expect(400);
    assert.match(noName.body.message, /Name the Object: send its slug \(or id\)/);
  });

  it('delete: the body form by slug or id, the path form; unknown slugs are 404 object_not_found', async () => {
    await write('delete', '/delete-object', { id: ids.keyed }).expect(200);
    await write('delete', '/delete-object', { slug: 'abc', type_slug: 'pages' }).expect(200);
    await write('delete', '/delete-object', {}).expect(400);
    const missing = await write('delete', '/objects/no-such-page', {}).expect(404);
    assert.equal(missing.body.code, 'object_not_found');
    const byPath = await request(suite.harness.app)
      .delete('/v1/v1params/objects/a-c?trigger_webhook=true')
      .set('Authorization', bearer())
      .send({ locale: 'fr' })
      .expect(200);
    assert.match(byPath.body.message, /Object with slug 'a-c' deleted/);
    const left = await read('/objects?status=all').expect(200);
    assert.deepEqual(
      (left.body as { objects: V1Obj[] }).objects.map((o) => [o.slug, o.locale]),
      [['a-c', 'en']],
    );
  });

  it('getObject with an unknown revision is a 404 revision_not_found; pretty indents v1 answers', async () => {
    const res = await read('/object/a-c?revision=5f0000000000000000000000').expect(404);
    assert.equal(res.body.code, 'revision_not_found');
    const pretty = await read('/object-types?pretty=true').expect(200);
    assert.match(pretty.text, /^\{\n {2}"object_types"/);
  });

  it('webhooks take the v3 body too; event and events together are refused', async () => {
    const v3 = await write('post', '/webhooks', { endpoint: 'https://example.com/a', events: ['media.created'] });
    assert.equal(v3.status, 200);
    const both = await write('post', '/webhooks', {
      endpoint: 'https://example.com/a',
      event: 'media.created',
      events: ['media.created'],
    }).expect(400);
    assert.match(both.body.message, /Send event \(v1\) or events \(v3\), not both/);
  });
});
