import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../../lib/config.js';
import type { BucketDoc, ObjectDoc, ObjectTypeDoc, RevisionDoc } from '../../lib/db/collections.js';
import type { MediaDoc } from '../../lib/store/media.js';
import { renderMedia } from '../../lib/render/media.js';
import { renderObjectType } from '../../lib/render/object-types.js';
import { renderObject, type RenderContext } from '../../lib/render/objects.js';
import { renderRevision } from '../../lib/render/revisions.js';
import { loadSchemas } from '../../lib/schemas.js';
import { validatorFor } from '../../lib/validation/ajv.js';
import { describeAjvErrors } from '../../lib/validation/ajv-messages.js';
import { everyMetafield } from '../support/fixtures.js';

/** The fields a schema describes, its allOf parts' included (Object is PartialObject plus requireds). */
function describedFields(schemaId: string): string[] {
  const schema = loadSchemas().find((s) => s.$id === schemaId);
  const own =
    typeof schema?.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
  const parts = Array.isArray(schema?.allOf) ? (schema.allOf as { $ref?: string }[]) : [];
  return [...own, ...parts.flatMap((p) => (p.$ref ? describedFields(p.$ref) : []))];
}

/**
 * The renderers' declared types against the component schemas the OpenAPI document publishes:
 * a rendered fixture must validate, and carry no field the schema does not describe.
 */
function assertMatches(schemaId: string, value: unknown): void {
  const validate = validatorFor(schemaId);
  const valid = validate(value);
  assert.equal(valid, true, describeAjvErrors(validate.errors, schemaId, schemaId).join('; '));
  const described = describedFields(schemaId);
  assert.deepEqual(
    Object.keys(value as object).filter((k) => !described.includes(k)),
    [],
    `fields ${schemaId} does not describe`,
  );
}

const config = loadConfig({ PUBLIC_URL: 'http://api.test' });
const at = new Date('2024-05-06T07:08:09.000Z');
const bucket: BucketDoc = {
  _id: new ObjectId(),
  slug: 'shop',
  read_key_hash: null,
  write_key_hash: null,
  generation: 1,
  created_at: at,
  modified_at: at,
};

const postsType: ObjectTypeDoc = {
  _id: new ObjectId(),
  bucket_id: bucket._id,
  slug: 'posts',
  title: 'Posts',
  singular: 'Post',
  emoji: '',
  singleton: false,
  metafields: everyMetafield,
  options: { slug_field: true, content_editor: false },
  localization: false,
  locales: [],
  priority_locale: null,
  preview_link: '',
  extensions: null,
  order: 0,
  created_at: at,
  modified_at: at,
};

const ctx: RenderContext = {
  types: new Map([[postsType.slug, postsType]]),
  fileUrls: (name) => ({
    url: `http://api.test/files/shop/${name}`,
    imgproc_url: `http://api.test/imgproc/shop/${name}`,
  }),
};

function post(extra: Partial<ObjectDoc> = {}): ObjectDoc {
  return {
    _id: new ObjectId(),
    bucket_id: bucket._id,
    type: 'posts',
    slug: 'hello',
    title: 'Hello',
    content: '',
    locale: null,
    thumbnail: null,
    status: 'published',
    metadata: { headline: 'Hi', colour: 'r', image: 'a.png', author: new ObjectId(), seo: { title: 'T', weight: 2 } },
    refs: [],
    order: 1,
    created_at: at,
    modified_at: at,
    published_at: at,
    created_by: null,
    modified_by: null,
    ...extra,
  };
}

const media: MediaDoc = {
  _id: new ObjectId(),
  bucket_id: bucket._id,
  name: 'a.png',
  original_name: 'A.png',
  size: 10,
  type: 'image/png',
  folder: null,
  alt_text: '',
  metadata: {},
  width: 2,
  height: 3,
  file_id: new ObjectId(),
  created_at: at,
  modified_at: at,
};

describe('rendered responses match the published schemas', () => {
  it('an Object, published, draft with schedules, and in its wrappers', () => {
    const published = renderObject(post(), ctx);
    assertMatches('Object', published);
    const scheduled = renderObject(
      post({ status: 'draft', published_at: null, publish_at: at, unpublish_at: at, locale: 'en' }),
      ctx,
    );
    assertMatches('Object', scheduled);
    assert.equal(scheduled.publish_at, at.getTime());
    assert.equal(scheduled.unpublish_at, at.getTime());
    assertMatches('ObjectResponse', { object: published });
    assertMatches('ObjectList', { objects: [published, scheduled], total: 2 });
    assertMatches('BatchResponse', {
      operations: [
        { method: 'add', status: 200, object: published },
        { method: 'delete', status: 404, message: 'gone' },
      ],
    });
  });

  it('an Object a props projection cut down renders only what it has', () => {
    const doc = post();
    const projected = renderObject({ _id: doc._id, title: doc.title }, ctx);
    assert.deepEqual(
      Object.entries(projected).filter(([, v]) => v !== undefined),
      [
        ['id', doc._id.toHexString()],
        ['title', 'Hello'],
      ],
    );
  });

  it('an Object type, in its wrappers', () => {
    const rendered = renderObjectType(postsType);
    assertMatches('ObjectType', rendered);
    assertMatches('ObjectTypeResponse', { object_type: rendered });
    assertMatches('ObjectTypeList', { object_types: [rendered] });
  });

  it('a media item, with and without pixel size, in its wrappers', () => {
    const image = renderMedia(media, config, bucket);
    const file = renderMedia({ ...media, type: 'text/plain', width: null, height: null }, config, bucket);
    assertMatches('Media', image);
    assertMatches('Media', file);
    assert.equal('width' in file, false);
    assertMatches('MediaResponse', { media: image });
    assertMatches('MediaList', { media: [image, file], total: 2 });
  });

  it('a revision, in its wrappers', () => {
    const doc = post();
    const revision: RevisionDoc = {
      _id: new ObjectId(),
      bucket_id: bucket._id,
      object_id: doc._id,
      type: doc.type,
      slug: doc.slug,
      title: doc.title,
      content: doc.content,
      metadata: doc.metadata,
      status: 'draft',
      created_at: at,
      created_by: null,
      reason: 'draft',
    };
    const rendered = renderRevision(revision, ctx);
    assertMatches('Revision', rendered);
    assertMatches('RevisionResponse', { revision: rendered });
    assertMatches('RevisionList', { revisions: [rendered], total: 1 });
  });
});
