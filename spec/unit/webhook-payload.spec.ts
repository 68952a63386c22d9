import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ObjectId } from 'mongodb';
import { openApiDocument } from '../../lib/openapi/document.js';
import { projectRoot } from '../../lib/project-root.js';
import type { WebhookDoc } from '../../lib/store/webhooks.js';
import { EVENT_TYPES, PING } from '../../lib/store/event-types.js';
import { subscribes } from '../../lib/webhooks/outbox.js';
import { eventBody, MAX_BODY_BYTES, shapeData } from '../../lib/webhooks/outbox.js';

const object = {
  id: '65a1b2c3d4e5f6a7b8c9d0e1',
  slug: 'hello',
  title: 'Hello',
  type: 'posts',
  content: '<p>x</p>',
  metadata: { price: 3, seo: { title: 'T', weight: 1 } },
};

function webhook(fields: Partial<WebhookDoc>): WebhookDoc {
  return {
    _id: new ObjectId(),
    bucket_id: new ObjectId(),
    title: 't',
    endpoint: 'http://x',
    events: ['object.created'],
    object_types: null,
    props: null,
    payload: true,
    headers: [],
    enabled: true,
    disabled_reason: null,
    consecutive_failures: 0,
    secret: 'whsec_AAAA',
    created_at: new Date(),
    modified_at: new Date(),
    ...fields,
  };
}

describe('webhooks: what each webhook is sent', () => {
  it('sends the whole rendered resource by default', () => {
    assert.deepEqual(shapeData('object.created', object, webhook({})), object);
  });

  it("narrows Objects to the webhook's props, nested paths included", () => {
    assert.deepEqual(shapeData('object.edited', object, webhook({ props: 'id,title,metadata.seo.title' })), {
      id: object.id,
      title: 'Hello',
      metadata: { seo: { title: 'T' } },
    });
  });

  it('sends only ids with payload false, per resource', () => {
    const ids = (type: Parameters<typeof shapeData>[0], data: Record<string, unknown>) =>
      shapeData(type, data, webhook({ payload: false, props: 'title' }));
    assert.deepEqual(ids('object.deleted', object), { id: object.id, slug: 'hello', type: 'posts' });
    assert.deepEqual(ids('object_type.created', { id: 'a', slug: 'posts', title: 'Posts', metafields: [] }), {
      id: 'a',
      slug: 'posts',
    });
    assert.deepEqual(ids('media.created', { id: 'm', name: 'x.png', url: 'u', metadata: {} }), {
      id: 'm',
      name: 'x.png',
    });
  });

  it('leaves props off media and Object type events', () => {
    const media = { id: 'm', name: 'x.png', url: 'u' };
    assert.deepEqual(shapeData('media.edited', media, webhook({ props: 'id' })), media);
  });

  it('wraps data in {id, type, created_at, bucket, data}, with ids only past 1 MB', () => {
    const envelope = { id: 'e1', type: 'object.created' as const, created_at: new Date(0), bucket_slug: 'b' };
    assert.deepEqual(JSON.parse(eventBody(envelope, object, webhook({}))), {
      id: 'e1',
      type: 'object.created',
      created_at: '1970-01-01T00:00:00.000Z',
      bucket: { slug: 'b' },
      data: object,
    });
    const huge = { ...object, content: 'x'.repeat(MAX_BODY_BYTES) };
    assert.deepEqual(JSON.parse(eventBody(envelope, huge, webhook({}))).data, {
      id: object.id,
      slug: 'hello',
      type: 'posts',
    });
  });

  it('matches events, object_types and enabled', () => {
    const posts = webhook({
      events: ['object.created', 'object_type.edited', 'media.created'],
      object_types: ['posts'],
    });
    assert.equal(subscribes(posts, { type: 'object.created', objectType: 'posts' }), true);
    assert.equal(subscribes(posts, { type: 'object.created', objectType: 'pages' }), false);
    assert.equal(subscribes(posts, { type: 'object.created' }), false);
    assert.equal(subscribes(posts, { type: 'object_type.edited', objectType: 'posts' }), true);
    assert.equal(subscribes(posts, { type: 'media.created' }), true, 'media is not filtered by type');
    assert.equal(subscribes(posts, { type: 'object.deleted', objectType: 'posts' }), false);
    assert.equal(subscribes({ ...posts, enabled: false }, { type: 'object.created', objectType: 'posts' }), false);
  });
});

describe('webhooks: the table of events', () => {
  it('is the enum of the request schemas and the OpenAPI webhooks section', () => {
    const schema = JSON.parse(fs.readFileSync(path.join(projectRoot, 'schemas', 'WebhookEventType.json'), 'utf8'));
    assert.deepEqual(schema.enum, EVENT_TYPES);
    const doc = openApiDocument('http://api.test') as { webhooks: Record<string, unknown> };
    assert.deepEqual(Object.keys(doc.webhooks), [...EVENT_TYPES, PING]);
  });

  it('is the table in docs/webhooks.md', () => {
    const readme = fs.readFileSync(path.join(projectRoot, 'docs', 'webhooks.md'), 'utf8');
    const listed = [...readme.matchAll(/^\| `([a-z_]+\.[a-z]+)`/gm)].map((m) => m[1]);
    assert.deepEqual(listed, EVENT_TYPES);
  });
});
