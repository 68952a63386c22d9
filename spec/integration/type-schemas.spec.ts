import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import request from 'supertest';
import { v3PathKey } from '../../lib/openapi/bucket-document.js';
import { METAFIELD_TYPES } from '../../lib/metafields/kinds.js';
import { newAjv } from '../../lib/validation/ajv.js';
import { imageBytes, upload } from '../support/media.js';
import { createTypedTypes, POST_METAFIELDS } from '../support/typed-bucket.js';
import { BucketSuite } from '../support/bucket-suite.js';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: object }> } }>>;
  components: { schemas: Record<string, Record<string, unknown>> };
  'x-object-types': Record<string, { object: string; create: string; metadataCreate: string }>;
};

const DOC_ID = 'https://bucket-document.test/openapi.json';

describe('GET /v3/buckets/{slug}/openapi.json: schemas of the Bucket’s Object types', () => {
  let doc: Doc;
  /** Validates `value` against the document's component schema `name`; the problems, or [] when valid. */
  let check: (name: string, value: unknown) => string[];
  let image: string;
  let author: string;

  const suite = new BucketSuite('typed', async () => {
    await createTypedTypes(suite.api);
    image = (await upload(suite.harness.app, suite.keys, await imageBytes(4, 4), { filename: 'i.png' }).expect(200))
      .body.media.name;
    author = (
      await suite.api.post('/objects', { title: 'Ann', type: 'authors', metadata: { name: 'Ann' } }).expect(200)
    ).body.object.id;
    doc = (await suite.api.get('/openapi.json').expect(200)).body;
    // The document as one schema resource: its component references resolve inside it.
    const ajv = newAjv({ strict: false, allErrors: true });
    ajv.addSchema({ $id: DOC_ID, components: doc.components });
    check = (name, value) => {
      const validate = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${name}` });
      return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
    };
  });

  it('is a valid OpenAPI 3.1 document naming every type’s schemas', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
    assert.deepEqual(Object.keys(doc['x-object-types']).sort(), ['authors', 'posts']);
    for (const name of ['Object_Posts', 'ObjectCreate_Posts', 'ObjectPatch_Posts', 'Metadata_Posts', 'Object_Authors'])
      assert.ok(doc.components.schemas[name], name);
    // The generic document has none of them.
    const generic = (await request(suite.harness.app).get('/v3/openapi.json').expect(200)).body as Doc;
    assert.equal(generic.components.schemas.Object_Posts, undefined);
  });

  it('describes a Metafield of every kind: required ones, options as enums, relationships to the related type', () => {
    assert.deepEqual([...new Set(POST_METAFIELDS.map((mf) => mf.type))].sort(), [...METAFIELD_TYPES].sort());
    const create = doc.components.schemas.MetadataCreate_Posts as {
      properties: Record<string, object>;
      required: string[];
    };
    assert.deepEqual(Object.keys(create.properties).sort(), POST_METAFIELDS.map((mf) => mf.key).sort());
    assert.deepEqual(create.required.sort(), ['colour', 'price']);
    assert.deepEqual(create.properties.colour, { type: 'string', enum: ['r', 'g', 'Red', 'Green'] });
    const answered = doc.components.schemas.Metadata_Posts as {
      properties: Record<string, unknown>;
      required: string[];
    };
    // Every key is answered, its value or its kind's empty value.
    assert.equal(answered.required.length, POST_METAFIELDS.length);
    const related = JSON.stringify(answered.properties.author);
    assert.match(related, /"\$ref":"#\/components\/schemas\/Object_Authors"/);
    assert.match(related, /"pattern":"\^\[0-9a-fA-F\]\{24\}\$"/);
    assert.match(JSON.stringify(answered.properties.colour), /"enum":\["Red","Green"\]/);
    assert.match(JSON.stringify(answered.properties.seo), /"weight"/);
    // An empty null as `type: null`: generators type `const: null` as unknown (openapi-typescript 7).
    assert.deepEqual(answered.properties.price, { anyOf: [{ type: 'null' }, { type: 'number' }] });
  });

  it('makes the create body the union of the types’ bodies, told apart by type', () => {
    const body = doc.paths[v3PathKey(doc.paths, '/buckets/{slug}/objects')]?.post?.requestBody?.content[
      'application/json'
    ]?.schema as {
      oneOf: object[];
      discriminator: { propertyName: string; mapping: Record<string, string> };
    };
    assert.equal(body.oneOf.length, 2);
    assert.equal(body.discriminator.propertyName, 'type');
    assert.equal(body.discriminator.mapping.posts, '#/components/schemas/ObjectCreate_Posts');
    // The v2 mirror keeps its own (v2-worded) body.
    const v2 = doc.paths['/v2/buckets/{slug}/objects']?.post?.requestBody?.content['application/json']?.schema;
    assert.ok(v2);
    assert.doesNotMatch(JSON.stringify(v2), /ObjectCreate_/);
  });

  it('accepts the Objects the service answers, at depth 0 and expanded, and refuses a value of the wrong kind', async () => {
    const metadata = {
      headline: 'Hello',
      summary: 's',
      body: '<p>b</p>',
      notes: '# n',
      colour: 'r',
      size: 'M',
      tags: ['news'],
      featured: true,
      price: 9.5,
      launch: '2026-01-02',
      extra: { a: [1, null] },
      image,
      author,
      related: [author],
      seo: { title: 'T', weight: 2 },
      links: [{ label: 'L', href: 'https://example.com' }],
    };
    const body = { title: 'Full', type: 'posts', metadata };
    assert.deepEqual(check('ObjectCreate_Posts', body), []);
    const id = (await suite.api.post('/objects', body).expect(200)).body.object.id as string;
    const sparse = { title: 'Sparse', type: 'posts', metadata: { price: 1, colour: 'Green' } };
    const sparseId = (await suite.api.post('/objects', sparse).expect(200)).body.object.id as string;
    for (const [objectId, depth] of [
      [id, 0],
      [id, 1],
      [id, 2],
      [sparseId, 0],
    ] as const) {
      const object = (await suite.api.get(`/objects/${objectId}?depth=${depth}`).expect(200)).body.object;
      assert.deepEqual(check('Object_Posts', object), [], `depth ${depth}: ${JSON.stringify(object.metadata)}`);
      if (objectId === id) assert.equal(typeof object.metadata.author, depth === 0 ? 'string' : 'object');
    }
    // The schema bites: a number Metafield answering text, an unknown option, an author of the wrong shape.
    const answered = (await suite.api.get(`/objects/${id}?depth=1`).expect(200)).body.object;
    for (const [key, value] of [
      ['price', 'nine'],
      ['colour', { key: 'b', value: 'Blue' }],
      ['author', { id: author, metadata: { name: 5 } }],
    ] as const) {
      const broken = { ...answered, metadata: { ...answered.metadata, [key]: value } };
      assert.notDeepEqual(check('Object_Posts', broken), [], key);
    }
    // And the service agrees with the create schema on what it refuses.
    const wrong = { ...body, metadata: { ...metadata, price: 'nine' } };
    assert.notDeepEqual(check('ObjectCreate_Posts', wrong), []);
    await suite.api.post('/objects', wrong).expect(400);
    assert.notDeepEqual(check('ObjectCreate_Posts', { title: 'x', type: 'posts', metadata: { colour: 'r' } }), []);
  });

  it('asks the read key like other reads, privately cached, and answers 404 for an unknown Bucket', async () => {
    const res = await suite.api.get('/openapi.json').expect(200);
    assert.equal(res.headers['cache-control'], 'private');
    const types = await request(suite.harness.app).get('/v3/buckets/typed/object-types?read_key=wrong');
    const wrong = await request(suite.harness.app).get('/v3/buckets/typed/openapi.json?read_key=wrong');
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, types.body);
    assert.equal((await request(suite.harness.app).get('/v3/buckets/typed/openapi.json')).status, 401);
    const missing = await request(suite.harness.app).get('/v3/buckets/nobody/openapi.json').expect(404);
    assert.equal(missing.body.status, 404);
    assert.match(missing.body.message, /nobody/);
  });
});
