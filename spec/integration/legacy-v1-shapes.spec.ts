import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { loadCosmicV1, type V1Bucket } from '../support/cosmic-v1.js';
import { BucketSuite } from '../support/bucket-suite.js';

type V1Metafield = Record<string, unknown> & { key: string; type: string; children?: V1Metafield[] };
interface V1Obj {
  _id: string;
  slug: string;
  metadata: Record<string, unknown>;
  metafields: V1Metafield[];
}
interface ErrorBody {
  status: number;
  message: string;
}

function slugs(page: unknown): string[] {
  assert.ok(typeof page === 'object' && page !== null && 'objects' in page, JSON.stringify(page));
  return (page as { objects: V1Obj[] }).objects.map((o) => o.slug).sort();
}

function field(o: { metafields: V1Metafield[] }, key: string): V1Metafield {
  const found = o.metafields.find((m) => m.key === key);
  assert.ok(found, `no Metafield ${key} in ${JSON.stringify(o.metafields)}`);
  return found;
}

/**
 * What the v1 client can send (strings only, in the query string) and the v1 Metafield shapes
 * (parent and repeater children, file names, related Objects at depth), through HTTP and the
 * unchanged cosmicjs 3.4.4 client.
 */
describe('legacy v1 Metafield values and shapes', () => {
  let server: http.Server;
  let b: V1Bucket;
  let logo = '';
  const ids: Record<string, string> = {};
  const read = (path: string) =>
    request(suite.harness.app).get(
      `/v1/v1shapes${path}${path.includes('?') ? '&' : '?'}read_key=${suite.keys.read_key ?? ''}`,
    );

  const suite = new BucketSuite('v1shapes', async () => {
    server = http.createServer(suite.harness.app).listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const { port } = server.address() as AddressInfo;
    const Cosmic = loadCosmicV1(`http://127.0.0.1:${String(port)}`);
    b = Cosmic().bucket({
      slug: suite.keys.slug,
      read_key: suite.keys.read_key ?? '',
      write_key: suite.keys.write_key ?? '',
    });
    await b.addObjectType({ title: 'People', slug: 'people' });
    await b.addObjectType({
      title: 'Teams',
      slug: 'teams',
      metafields: [
        { type: 'number', title: 'Rank', key: 'rank', value: '' },
        { type: 'switch', title: 'Featured', key: 'featured', options: 'true,false', value: false },
        {
          type: 'parent',
          title: 'SEO',
          key: 'seo',
          children: [
            { type: 'text', title: 'Headline', key: 'headline', value: '' },
            { type: 'number', title: 'Score', key: 'score', value: '' },
          ],
        },
        {
          type: 'repeater',
          title: 'Links',
          key: 'links',
          repeater_fields: [{ type: 'text', title: 'Label', key: 'label', value: '' }],
        },
        { type: 'file', title: 'Logo', key: 'logo', value: '' },
        { type: 'object', title: 'Captain', key: 'captain', object_type: 'people', value: '' },
        { type: 'objects', title: 'Members', key: 'members', object_type: 'people', value: '' },
      ],
    });
    for (const title of ['Ada', 'Grace']) {
      const res = (await b.addObject({ type_slug: 'people', title })) as { object: V1Obj };
      ids[res.object.slug] = res.object._id;
    }
    const up = (await b.addMedia({ media: { buffer: Buffer.from('png?'), originalname: 'logo.png' } })) as {
      media: { name: string };
    };
    logo = up.media.name;
  });
  after(() => {
    server.close();
  });

  it('addObject (client) takes number and switch values as the strings v1 sends, nested ones too', async () => {
    const res = (await b.addObject({
      type_slug: 'teams',
      title: 'Reds',
      metafields: [
        { key: 'rank', type: 'number', value: '7' },
        { key: 'featured', type: 'switch', value: 'true' },
        {
          key: 'seo',
          type: 'parent',
          children: [
            { key: 'headline', type: 'text', value: 'Go reds' },
            { key: 'score', type: 'number', value: '2.5' },
          ],
        },
        {
          key: 'links',
          type: 'repeater',
          children: [{ type: 'repeating_item', children: [{ key: 'label', value: 'one' }] }],
        },
        { key: 'logo', type: 'file', value: logo },
        { key: 'captain', type: 'object', value: ids.ada },
        { key: 'members', type: 'objects', value: `${ids.ada ?? ''},${ids.grace ?? ''}` },
      ],
    })) as { object: V1Obj };
    assert.ok(res.object, JSON.stringify(res));
    assert.equal(res.object.metadata.rank, 7);
    assert.equal(res.object.metadata.featured, true);
    assert.deepEqual(res.object.metadata.seo, { headline: 'Go reds', score: 2.5 });
    const blues = (await b.addObject({
      type_slug: 'teams',
      title: 'Blues',
      // Without a type on the entry, the Object type's Metafield decides.
      metafields: [{ key: 'rank', value: '12' }],
    })) as { object: V1Obj };
    assert.equal(blues.object.metadata.rank, 12);
    const bad = (await b.addObject({
      type_slug: 'teams',
      title: 'Greens',
      metafields: [{ key: 'rank', type: 'number', value: 'seven' }],
    })) as ErrorBody;
    assert.equal(bad.status, 400);
    assert.match(bad.message, /rank/);
  });

  it('getObjects and searchObjectType (client) filter number and switch Metafields by the strings v1 sends', async () => {
    assert.deepEqual(slugs(await b.getObjects({ metadata: { rank: 7 } })), ['reds']);
    assert.deepEqual(slugs(await b.getObjects({ metadata: { featured: true } })), ['reds']);
    assert.deepEqual(slugs(await b.getObjects({ metadata: { 'seo.score': 2.5 } })), ['reds']);
    const search = await b.searchObjectType({ type_slug: 'teams', metafield_key: 'rank', metafield_value: 12 });
    assert.deepEqual(slugs(search), ['blues']);
    const bad = (await b.getObjects({ metadata: { rank: 'high' } })) as ErrorBody;
    assert.equal(bad.status, 400);
    assert.match(bad.message, /metadata\[rank\]: "high" is not a number/);
  });

  it('through HTTP: metadata[key] and metafield_value are read by the Metafield kind; a bad value is a 400 naming the key', async () => {
    assert.deepEqual(slugs((await read('/objects?metadata[rank]=7').expect(200)).body), ['reds']);
    assert.deepEqual(slugs((await read('/objects?metadata[featured]=false').expect(200)).body), ['blues']);
    const search = await read('/object-type/teams/search?metafield_key=rank&metafield_value=12').expect(200);
    assert.deepEqual(slugs(search.body), ['blues']);
    const bad = await read('/objects?metafield_key=featured&metafield_value=maybe').expect(400);
    assert.match(bad.body.message, /metafield_value: "maybe" is not true or false \(featured is a switch\)/);
    const add = await request(suite.harness.app)
      .post('/v1/v1shapes/add-object')
      .send({
        write_key: suite.keys.write_key,
        type_slug: 'teams',
        title: 'x',
        metafields: [{ key: 'rank', value: '1e' }],
      })
      .expect(400);
    assert.match(add.body.message, /rank/);
  });

  it('getObject (client): parent and repeater answer children, file its name and URLs, related Objects at depth', async () => {
    const res = (await b.getObject({ slug: 'reds', depth: 1 })) as { object: V1Obj };
    const seo = field(res.object, 'seo');
    assert.equal(Object.hasOwn(seo, 'value'), false);
    assert.deepEqual(
      seo.children?.map((c) => [c.key, c.value]),
      [
        ['headline', 'Go reds'],
        ['score', 2.5],
      ],
    );
    const links = field(res.object, 'links');
    assert.equal(Object.hasOwn(links, 'value'), false);
    assert.deepEqual(
      links.children?.map((item) => item.type),
      ['repeating_item'],
    );
    const [item] = links.children ?? [];
    assert.ok(item);
    assert.deepEqual(
      item.children?.map((c) => [c.key, c.value]),
      [['label', 'one']],
    );
    assert.deepEqual(
      (links.repeater_fields as V1Metafield[]).map((f) => f.key),
      ['label'],
    );
    const file = field(res.object, 'logo');
    assert.equal(file.value, logo);
    assert.match(String(file.url), new RegExp(`/files/v1shapes/${logo}$`));
    assert.match(String(file.imgproc_url), new RegExp(`/imgproc/v1shapes/${logo}$`));
    const captain = field(res.object, 'captain');
    assert.equal(captain.value, ids.ada);
    assert.equal((captain.object as V1Obj)._id, ids.ada);
    const members = field(res.object, 'members');
    assert.equal(members.value, `${ids.ada ?? ''},${ids.grace ?? ''}`);
    assert.deepEqual(
      (members.objects as V1Obj[]).map((o) => o._id),
      [ids.ada, ids.grace],
    );
  });

  it('through HTTP: at depth 0 related Metafields carry only ids; empty parent and repeater keep their shapes', async () => {
    const res = await read('/object/blues').expect(200);
    const blues = (res.body as { object: V1Obj }).object;
    assert.equal(Object.hasOwn(field(blues, 'captain'), 'object'), false);
    assert.deepEqual(field(blues, 'links').children, []);
    assert.deepEqual(
      field(blues, 'seo').children?.map((c) => [c.key, c.value]),
      [
        ['headline', ''],
        ['score', null],
      ],
    );
    assert.equal(field(blues, 'logo').value, null);
    const list = await read('/object-type/teams?depth=1&sort=created_at').expect(200);
    const [reds] = (list.body as { objects: V1Obj[] }).objects;
    assert.ok(reds);
    assert.equal((field(reds, 'captain').object as V1Obj).slug, 'ada');
  });
  it('editObjectMetafields and editObject (client) read the strings by the edited Object type, untyped entries too', async () => {
    const patched = (await b.editObjectMetafields({
      slug: 'blues',
      metafields: [{ key: 'rank', value: '13' }],
    })) as { object: V1Obj };
    assert.equal(patched.object.metadata.rank, 13);
    const edited = (await b.editObject({
      slug: 'blues',
      metafields: [{ key: 'featured', value: 'yes' }],
    })) as { object: V1Obj };
    assert.equal(edited.object.metadata.featured, true);
    assert.equal(edited.object.metadata.rank, 13);
  });
});
