import assert from 'node:assert/strict';
import request from 'supertest';
import { BucketSuite } from '../support/bucket-suite.js';
import { upload } from '../support/media.js';
import { checkAnswer, type Answer } from '../support/response-recorder.js';
import { ResponseSchemas } from '../support/response-schemas.js';

/** An answer as the recorder sees it, from a supertest response. */
function answer(method: string, url: string, res: request.Response): Answer {
  return {
    method,
    url,
    status: res.status,
    contentType: String(res.headers['content-type']),
    body: Buffer.from(res.text),
  };
}

describe('OpenAPI response schemas', () => {
  let schemas: ResponseSchemas;
  let objectUrl: string;
  let mediaUrl: string;
  const suite = new BucketSuite('shapes', async (api) => {
    schemas = new ResponseSchemas();
    const { keys } = suite;
    await api.post('/object-types', { title: 'Posts', slug: 'posts' }).expect(200);
    const created = await api.post('/objects', { title: 'Hello', type: 'posts' }).expect(200);
    objectUrl = `/v3/buckets/shapes/objects/${created.body.object.id}?read_key=${keys.read_key}`;
    const file = await upload(suite.harness.app, keys, Buffer.from('hello'), { filename: 'notes.txt' }).expect(200);
    mediaUrl = `/v3/buckets/shapes/media/${file.body.media.id}?read_key=${keys.read_key}`;
  });

  it('the recorder finds an answer its operation does not describe, and passes one it does', async () => {
    const res = await request(suite.harness.app).get(objectUrl).expect(200);
    assert.equal(checkAnswer(schemas, answer('GET', objectUrl, res)), null);
    const wrong = { ...answer('GET', objectUrl, res), body: Buffer.from('{"object":{"title":7}}') };
    assert.match(checkAnswer(schemas, wrong)?.problem ?? '', /\/object\/title must be string/);
    const undescribed = { ...answer('GET', objectUrl, res), status: 418 };
    assert.match(checkAnswer(schemas, undescribed)?.problem ?? '', /status not described/);
    // An app that does not route the path (the METRICS_PORT one) answers no operation of the document.
    const unrouted = {
      ...answer('GET', '/v3/status', res),
      status: 404,
      body: Buffer.from('{"code":"route_not_found"}'),
    };
    assert.equal(checkAnswer(schemas, unrouted), null);
  });

  it('describes reads narrowed by props (Object, media, and their lists) without dropping the whole shapes’ requireds', async () => {
    const narrowed = [
      `${objectUrl}&props=title,slug`,
      `${mediaUrl}&props=name,url`,
      `${mediaUrl.replace(/\/media\/[^?]+/, '/media')}&props=name`,
      `${objectUrl.replace(/\/objects\/[^?]+/, '/objects')}&props=slug`,
    ];
    for (const url of narrowed) {
      const res = await request(suite.harness.app).get(url).expect(200);
      assert.equal(checkAnswer(schemas, answer('GET', url, res)), null, url);
    }
    // A whole Object or media item (a write's answer) must still carry every field.
    const created = await request(suite.harness.app).get(objectUrl).expect(200);
    const patch = { ...answer('PATCH', objectUrl, created), body: Buffer.from('{"object":{"title":"Hello"}}') };
    assert.match(checkAnswer(schemas, patch)?.problem ?? '', /must have required property 'id'/);
  });
});
