import { MEDIA_VALIDATION_TYPES, type MetafieldType } from '../types/metafield.js';
import type { AttributeRule, DefinitionAttribute, Schema } from './kind.js';
import { METAFIELD_KINDS, METAFIELD_TYPES } from './kinds.js';

/** The definition properties of each attribute group (see DefinitionAttribute). */
const ATTRIBUTE_PROPERTIES: Record<DefinitionAttribute, readonly string[]> = {
  options: ['options'],
  object_type: ['object_type'],
  repeater_fields: ['repeater_fields'],
  children: ['children'],
  media_validation_type: ['media_validation_type'],
  length: ['minlength', 'maxlength'],
  regex: ['regex', 'regex_message'],
};

const ATTRIBUTE_COMMENTS: Partial<Record<DefinitionAttribute, string>> = {
  regex: 'Types whose value is one string or number, which a regex can be tested against.',
};

/** The properties every definition may carry; which apply to a type is stated by the rules below them. */
const PROPERTIES: Schema = {
  id: { type: 'string' },
  type: { enum: METAFIELD_TYPES },
  title: { type: 'string', minLength: 1 },
  key: {
    type: 'string',
    pattern: '^[A-Za-z0-9_-]+$',
    title: 'made of letters, digits, "_" and "-"',
    description: "Unique within its level; the key of the value under an Object's metadata.",
  },
  value: { description: 'Default value; its shape depends on type. Absent for repeater and parent.' },
  required: { type: 'boolean' },
  regex: {
    type: 'string',
    description: 'A JavaScript regular expression source, or a literal with flags such as "/^[a-z]+$/i".',
  },
  regex_message: { type: 'string' },
  minlength: { type: 'integer', minimum: 0 },
  maxlength: { type: 'integer', minimum: 0 },
  options: {
    type: ['array', 'string'],
    description: 'Option objects, or for switch the string "true,false" or "yes,no".',
  },
  children: { type: 'array', description: 'parent: nested Metafields. repeater: repeating items.' },
  object_type: { type: 'string', minLength: 1, description: 'Slug of the related Object type.' },
  repeater_fields: { type: 'array', items: { $ref: 'Metafield' } },
  media_validation_type: {
    enum: MEDIA_VALIDATION_TYPES,
    description: 'Restricts file values to media of this MIME top-level type.',
  },
  sortable: {
    type: 'boolean',
    description: 'Objects may be sorted by metadata.<key>; at most 2 per Object type.',
  },
  helptext: { type: 'string' },
};

const typeIs = (types: readonly MetafieldType[]): Schema => ({
  properties: { type: types.length === 1 ? { const: types[0] } : { enum: types } },
});

/** What a definition of one type must and may hold: its default value and its kind's attributes. */
function typeRule(type: MetafieldType): Schema {
  const { value, takes } = METAFIELD_KINDS[type].definition;
  const required = value === false ? [] : ['value'];
  const properties: Schema = { value };
  for (const [attribute, rule] of Object.entries(takes) as Array<[DefinitionAttribute, AttributeRule]>) {
    for (const name of ATTRIBUTE_PROPERTIES[attribute]) {
      if (rule.required === true) required.push(name);
      if (rule.schema !== undefined) properties[name] = rule.schema;
    }
  }
  return { if: typeIs([type]), then: { ...(required.length > 0 && { required }), properties } };
}

/** Each attribute is refused on the types whose kind does not take it. */
function attributeRule(attribute: DefinitionAttribute): Schema {
  const types = METAFIELD_TYPES.filter((t) => METAFIELD_KINDS[t].definition.takes[attribute] !== undefined);
  const comment = ATTRIBUTE_COMMENTS[attribute];
  return {
    ...(comment !== undefined && { $comment: comment }),
    if: typeIs(types),
    else: { properties: Object.fromEntries(ATTRIBUTE_PROPERTIES[attribute].map((name) => [name, false])) },
  };
}

/**
 * schemas/Metafield.json, made from the kinds' `definition` rules (lib/metafields/kinds.ts), so
 * the list of types and what each takes are stated once. `npm run gen:types` writes it and a
 * unit test fails when the file and the table disagree.
 */
export function metafieldSchema(): Schema {
  return {
    $id: 'Metafield',
    type: 'object',
    description:
      'One Metafield definition of an Object type. Which of value, options, object_type, repeater_fields and children apply depends on type.',
    required: ['type', 'title', 'key'],
    properties: PROPERTIES,
    additionalProperties: false,
    $comment:
      'The rules below only apply once type is known, so a missing or misspelt type yields one error, not one per rule.',
    if: { required: ['type'], properties: { type: { enum: METAFIELD_TYPES } } },
    then: {
      allOf: [
        ...METAFIELD_TYPES.map(typeRule),
        ...(Object.keys(ATTRIBUTE_PROPERTIES) as DefinitionAttribute[]).map(attributeRule),
      ],
    },
  };
}
