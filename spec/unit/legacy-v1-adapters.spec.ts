import assert from 'node:assert/strict';
import { ObjectId } from 'mongodb';
import type { ObjectTypeDoc, RevisionDoc } from '../../lib/db/collections.js';
import { HttpError } from '../../lib/errors/http-errors.js';
import { v3MetafieldsEdit, v3ObjectBody } from '../../lib/api/legacy/v1/bodies.js';
import { parseV1Read, V1_PARAM_NAMES } from '../../lib/api/legacy/v1/list-params.js';
import { toV1Object, toV1Revision } from '../../lib/api/legacy/v1/object-shape.js';
import { v3WebhookBody } from '../../lib/api/legacy/v1/webhook-routes.js';
import { loadSchemas } from '../../lib/schemas.js';
import { newObjectTypeDoc } from '../../lib/object-types/object-types.js';
import { renderObject, type RenderContext } from '../../lib/render/objects.js';
import { validatorFor } from '../../lib/validation/ajv.js';
import { describeAjvErrors } from '../../lib/validation/ajv-messages.js';

const at = new Date('2024-05-06T07:08:09.000Z');
const related = new ObjectId();
const postsType: ObjectTypeDoc = newObjectTypeDoc(
  new ObjectId(),
  {
    title: 'Posts',
    singular: 'Post',
    metafields: [
      { type: 'text', title: 'Headline', key: 'headline', value: '' },
      { type: 'objects', title: 'Tags', key: 'tags', object_type: 'posts', value: '' },
    ],
    options: { slug_field: true, content_editor: false },
  },
  'posts',
  0,
  at,
);
const ctx: RenderContext = { types: new Map([['posts', postsType]]), fileUrls: () => null };
const ALL = V1_PARAM_NAMES;

/** The message of the 400 `fn` throws. */
function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof HttpError && err.status === 400, String(err));
    return err.message;
  }
  assert.fail('expected a 400');
}

describe('legacy v1 adapters', () => {
  describe('parseV1Read: v1 parameters as a v3 query', () => {
    it('defaults: no filter, published, Objects order, every property', () => {
      assert.deepEqual(parseV1Read({}, ALL, []), {
        query: undefined,
        status: 'published',
        sort: 'order',
        projection: null,
        props: null,
        hideMetafields: false,
        revision: undefined,
      });
    });

    it('escapes q, turns status=all into any, and joins every condition with $and', () => {
      const read = parseV1Read({ type: 'posts', q: 'a.b(', status: 'all', 'metadata[headline]': 'Hi' }, ALL, []);
      assert.equal(read.status, 'any');
      assert.deepEqual(JSON.parse(read.query ?? ''), {
        $and: [
          { type: 'posts' },
          {
            $or: [{ title: { $regex: 'a\\.b\\(', $options: 'i' } }, { content: { $regex: 'a\\.b\\(', $options: 'i' } }],
          },
          { 'metadata.headline': 'Hi' },
        ],
      });
    });

    it('comma-separated ids in metadata[key] match any of them; other commas are text', () => {
      const a = new ObjectId().toHexString();
      const b = new ObjectId().toHexString();
      assert.deepEqual(JSON.parse(parseV1Read({ 'metadata[tags]': `${a},${b}` }, ALL, []).query ?? ''), {
        'metadata.tags': { $in: [a, b] },
      });
      assert.deepEqual(JSON.parse(parseV1Read({ 'metadata[headline]': 'x,y' }, ALL, []).query ?? ''), {
        'metadata.headline': 'x,y',
      });
    });

    it('filters[connected_to] looks in every relationship Metafield; with none, nothing matches', () => {
      const id = related.toHexString();
      const withTypes = parseV1Read({ 'filters[connected_to]': id }, ALL, [postsType]);
      assert.deepEqual(JSON.parse(withTypes.query ?? ''), { $or: [{ 'metadata.tags': id }] });
      const without = parseV1Read({ 'filters[connected_to]': id }, ALL, []);
      assert.deepEqual(JSON.parse(without.query ?? ''), { id: { $in: [] } });
    });

    it('the deprecated search takes metafield_object_slug as the ids the caller looked up', () => {
      const ids = [related.toHexString()];
      const read = parseV1Read({ metafield_key: 'tags', metafield_object_slug: 'x' }, ALL, [], { slugIds: ids });
      assert.deepEqual(JSON.parse(read.query ?? ''), { 'metadata.tags': { $in: ids } });
    });

    it('props pick the v1 shape and project the v3 fields it is made from', () => {
      const read = parseV1Read({ props: '_id,type_slug,metafields,options,metadata.headline' }, ALL, []);
      assert.deepEqual(read.props, ['_id', 'type_slug', 'metafields', 'options', 'metadata.headline']);
      assert.deepEqual(read.projection, ['id', 'type', 'metadata', 'metadata.headline']);
    });

    it('reads only the parameters the route takes', () => {
      assert.equal(parseV1Read({ q: 'x', type: 'posts', hide_metafields: 'maybe' }, ['props'], []).query, undefined);
    });

    it('reports every problem in one 400', () => {
      const message = refusal(() =>
        parseV1Read(
          { status: 'x', sort: 'title', q: 'é'.repeat(300), metafield_value: 'v', hide_metafields: '2' },
          ALL,
          [],
        ),
      );
      for (const part of [
        'status must be one of',
        'sort must be one of',
        'q is too long',
        'metafield_key goes',
        'hide_metafields',
      ])
        assert.ok(message.includes(part), `${part} in ${message}`);
    });
  });

  describe('v1 bodies as v3 bodies', () => {
    it('Add Object: type_slug becomes type, metafields become metadata, keys and options are consumed', () => {
      const a = related.toHexString();
      const { body, notify } = v3ObjectBody(
        {
          type_slug: 'posts',
          title: 'T',
          write_key: 'k',
          trigger_webhook: true,
          options: { slug_field: 0 },
          metafields: [
            { key: 'headline', type: 'text', value: 'H' },
            { key: 'tags', type: 'objects', value: `${a}, ${a}` },
          ],
        },
        'create',
      );
      assert.deepEqual(body, { title: 'T', type: 'posts', metadata: { headline: 'H', tags: [a, a] } });
      assert.equal(notify, true);
    });

    it('a create passes id on to the v3 schema (which refuses it); an edit by slug is no rename, by id it is', () => {
      assert.equal(v3ObjectBody({ type_slug: 'p', title: 'T', id: 'x' }, 'create').body.id, 'x');
      assert.deepEqual(v3ObjectBody({ slug: 's', title: 'T' }, 'edit-by-slug').body, { title: 'T' });
      assert.deepEqual(v3ObjectBody({ id: 'x', slug: 's' }, 'edit-by-id').body, { slug: 's' });
    });

    it('refuses what it cannot translate, naming it', () => {
      assert.match(
        refusal(() => v3ObjectBody({ title: 'T' }, 'create')),
        /type_slug is required/,
      );
      assert.match(
        refusal(() => v3ObjectBody({ options: { slug_field: 'no' } }, 'edit-by-id')),
        /options\.slug_field/,
      );
      assert.match(
        refusal(() => v3ObjectBody({ metafields: [{ value: 1 }] }, 'edit-by-id')),
        /metafields\[0\]/,
      );
      assert.match(
        refusal(() => v3MetafieldsEdit({ slug: 's', metafields: [], content: 'x' })),
        /not content/,
      );
    });

    it('Add Webhook: the v1 event becomes v3 events; a v3 body passes through', () => {
      assert.deepEqual(v3WebhookBody({ event: 'object.created.draft', endpoint: 'https://e', write_key: 'k' }), {
        endpoint: 'https://e',
        events: ['object.created'],
      });
      assert.deepEqual(v3WebhookBody({ endpoint: 'https://e', events: ['media.created'] }), {
        endpoint: 'https://e',
        events: ['media.created'],
      });
      assert.match(
        refusal(() => v3WebhookBody({ event: 'object.moved', endpoint: 'https://e' })),
        /event must be one of/,
      );
    });
  });

  describe('the v1 Object shape', () => {
    function assertV1Object(value: Record<string, unknown>): void {
      const validate = validatorFor('V1Object');
      assert.equal(validate(value), true, describeAjvErrors(validate.errors, 'V1Object', 'V1Object').join('; '));
      const described = Object.keys(loadSchemas().find((s) => s.$id === 'V1Object')?.properties ?? {});
      assert.deepEqual(
        Object.keys(value).filter((k) => !described.includes(k)),
        [],
      );
    }
    const doc = {
      _id: new ObjectId(),
      bucket_id: postsType.bucket_id,
      type: 'posts',
      slug: 'hello',
      title: 'Hello',
      content: '',
      locale: null,
      thumbnail: null,
      status: 'published' as const,
      metadata: { headline: 'Hi', tags: [related] },
      refs: [],
      order: 1,
      created_at: at,
      modified_at: at,
      published_at: at,
      created_by: null,
      modified_by: null,
    };

    it('has _id, type_slug, the type options and its Metafields with v1 values, as V1Object describes', () => {
      const v1 = toV1Object(renderObject(doc, ctx), postsType, false);
      assertV1Object(v1);
      assert.equal(v1._id, doc._id.toHexString());
      assert.equal(v1.type_slug, 'posts');
      assert.deepEqual(v1.options, { slug_field: 1, content_editor: 0 });
      assert.deepEqual(
        (v1.metafields as { key: string; value: unknown }[]).map((m) => [m.key, m.value]),
        [
          ['headline', 'Hi'],
          ['tags', related.toHexString()],
        ],
      );
      assert.equal('metafields' in toV1Object(renderObject(doc, ctx), postsType, true), false);
    });

    it('a revision keeps the Object id as _id and adds its own revision_id', () => {
      const rev: RevisionDoc = {
        _id: new ObjectId(),
        bucket_id: doc.bucket_id,
        object_id: doc._id,
        type: 'posts',
        slug: 'hello',
        title: 'Old',
        content: '',
        metadata: doc.metadata,
        status: 'draft',
        created_at: at,
        created_by: null,
        reason: 'draft',
      };
      const v1 = toV1Revision(rev, ctx, false);
      assertV1Object(v1);
      assert.equal(v1._id, doc._id.toHexString());
      assert.equal(v1.revision_id, rev._id.toHexString());
    });
  });
});
