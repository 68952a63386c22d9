import assert from 'node:assert/strict';
import fs from 'node:fs';
import { bodySchemaNames, GENERATED_FILE, generateBodyTypes } from '../../bin/gen-body-types.js';
import { MEDIA_VALIDATION_TYPES, type Metafield, type RepeatingItem } from '../../lib/types/metafield.js';
import { METAFIELD_TYPES } from '../../lib/metafields/kinds.js';
import { loadSchemas } from '../../lib/schemas.js';
import type { BodySchemas } from '../../lib/types/bodies.generated.js';
import { assertValid } from '../../lib/validation/ajv-messages.js';

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function schema(id: string): Node {
  const found = loadSchemas().find((s) => s.$id === id);
  assert.ok(found, `schemas/${id}.json`);
  return found;
}

function propertyNames(s: unknown): string[] {
  assert.ok(isNode(s) && isNode(s.properties));
  return Object.keys(s.properties).sort();
}

/** The schema of a repeater's items, wherever Metafield.json's rules put it. */
function repeatingItemSchema(): unknown {
  let found: unknown;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (isNode(node)) {
      const type = isNode(node.properties) ? node.properties.type : undefined;
      if (isNode(type) && type.const === 'repeating_item') found = node;
      else Object.values(node).forEach(visit);
    }
  };
  visit(schema('Metafield'));
  return found;
}

// Exhaustive by type: adding or removing a field of the hand-written types fails to compile here.
const METAFIELD_KEYS: Record<keyof Metafield, true> = {
  id: true,
  type: true,
  title: true,
  key: true,
  value: true,
  required: true,
  regex: true,
  regex_message: true,
  minlength: true,
  maxlength: true,
  options: true,
  children: true,
  object_type: true,
  repeater_fields: true,
  media_validation_type: true,
  sortable: true,
  helptext: true,
};
const REPEATING_ITEM_KEYS: Record<keyof RepeatingItem, true> = {
  id: true,
  type: true,
  title: true,
  key: true,
  children: true,
};

describe('request-body types', () => {
  it('lib/types/bodies.generated.ts is what `npm run gen:types` makes of schemas/ (run it after a schema change)', async () => {
    assert.equal(fs.readFileSync(GENERATED_FILE, 'utf8'), await generateBodyTypes());
  });

  it('has a type for every JSON request body the OpenAPI document names', () => {
    const typed: Record<keyof BodySchemas, true> = {
      BatchRequest: true,
      ExtensionCreate: true,
      ExtensionEdit: true,
      MediaFolderCreate: true,
      MediaFolderPatch: true,
      MediaPatch: true,
      MergeRequestCreate: true,
      MetafieldKeyRename: true,
      ObjectCreate: true,
      ObjectPatch: true,
      ObjectTypeCreate: true,
      ObjectTypePatch: true,
      PreviewTokenRequest: true,
      RevisionCreate: true,
      WebhookCreate: true,
      WebhookPatch: true,
    };
    assert.deepEqual(Object.keys(typed).sort(), bodySchemaNames());
  });

  it('narrows a body that passed assertValid to its generated type', () => {
    const body: unknown = { title: 'Hello', type: 'posts', metadata: { price: 3 } };
    assertValid('ObjectCreate', body, 'body');
    // These lines compile only because assertValid proved the shape.
    const title: string = body.title;
    const price: unknown = body.metadata?.price;
    assert.equal(title, 'Hello');
    assert.equal(price, 3);
  });

  describe('hand-written Metafield type', () => {
    it('has exactly the fields of schemas/Metafield.json', () => {
      assert.deepEqual(Object.keys(METAFIELD_KEYS).sort(), propertyNames(schema('Metafield')));
    });

    it('describes repeating items with exactly the fields the schema gives them', () => {
      assert.deepEqual(Object.keys(REPEATING_ITEM_KEYS).sort(), propertyNames(repeatingItemSchema()));
    });

    it('lists the types and media validation types the schema allows', () => {
      const props = schema('Metafield').properties;
      assert.ok(isNode(props) && isNode(props.type) && isNode(props.media_validation_type));
      assert.deepEqual([...METAFIELD_TYPES], props.type.enum);
      assert.deepEqual([...MEDIA_VALIDATION_TYPES], props.media_validation_type.enum);
    });
  });
});
