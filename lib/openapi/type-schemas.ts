import type { ObjectTypeDoc } from '../db/collections.js';
import type { Metafield } from '../types/metafield.js';
import type { AnswerSchemas, Schema } from '../metafields/kind.js';
import { kindOf } from '../metafields/kinds.js';
import { metadataJsonSchema } from '../metafields/metadata-schema.js';

/*
 * Component schemas of one Bucket's Object types, from their Metafields. Writes are described by
 * the very schemas the service validates `metadata` with (lib/metafields/metadata-schema.ts);
 * answers by each kind's `answer` (or `value`) schema in lib/metafields/kinds.ts, plus its empty
 * value: no table of kinds lives here.
 */

export const componentRef = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** The component names of one Object type's schemas. */
export interface TypeSchemaNames {
  /** The Object as reads answer it. */
  object: string;
  /** The body of POST /objects creating one. */
  create: string;
  /** The body of PATCH /objects/{id} editing one. */
  patch: string;
  /** Its metadata as answered, as created, as patched. */
  metadata: string;
  metadataCreate: string;
  metadataPatch: string;
}

/** "blog-posts" → "BlogPosts": the part of a type's schema names that names the type. */
function pascal(slug: string): string {
  const words = slug.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('') || 'Type';
}

/** Schema names per type slug; slugs that spell alike ("a-1", "a1") are told apart by a number. */
export function typeSchemaNames(slugs: readonly string[]): Map<string, TypeSchemaNames> {
  const taken = new Set<string>();
  const out = new Map<string, TypeSchemaNames>();
  for (const slug of slugs) {
    let name = pascal(slug);
    for (let n = 2; taken.has(name); n++) name = `${pascal(slug)}_${n}`;
    taken.add(name);
    out.set(slug, {
      object: `Object_${name}`,
      create: `ObjectCreate_${name}`,
      patch: `ObjectPatch_${name}`,
      metadata: `Metadata_${name}`,
      metadataCreate: `MetadataCreate_${name}`,
      metadataPatch: `MetadataPatch_${name}`,
    });
  }
  return out;
}

/** Every key of a level is answered (its empty value when it has none); the first definition of a key wins. */
function answeredLevel(metafields: readonly Metafield[], nested: AnswerSchemas): Schema {
  const properties: Array<[string, Schema]> = [];
  const seen = new Set<string>();
  for (const mf of metafields) {
    if (seen.has(mf.key)) continue;
    seen.add(mf.key);
    properties.push([mf.key, answeredValue(mf, nested)]);
  }
  return { type: 'object', properties: Object.fromEntries(properties), required: [...seen] };
}

/**
 * A value as answered: its kind's shape with `required` off (answers may predate it), or the
 * kind's empty value. Scalar empties (null, "", false) are added as constants; container empties
 * ([] and a parent's children's empties) already fit the shape once nothing is required.
 */
function answeredValue(mf: Metafield, nested: AnswerSchemas): Schema {
  const kind = kindOf(mf);
  const loose = { ...mf, required: false };
  const shape = kind.answer ? kind.answer(loose, nested) : kind.value(loose, nested);
  const empty = kind.empty();
  if (kind.emptyIsValue === true || (empty !== null && typeof empty === 'object')) return shape;
  // `type: null` rather than `const: null`, which some generators (openapi-typescript) type as unknown.
  return { anyOf: [empty === null ? { type: 'null' } : { const: empty }, shape] };
}

/** The schema of a type's metadata as answered; related Objects of types outside `names` use the generic Object. */
export function answeredMetadataSchema(
  metafields: readonly Metafield[],
  names: ReadonlyMap<string, TypeSchemaNames>,
): Schema {
  const nested: AnswerSchemas = {
    level: (fields) => answeredLevel(fields, nested),
    item: (fields) => answeredLevel(fields, nested),
    related: (slug) => componentRef((slug !== undefined ? names.get(slug)?.object : undefined) ?? 'Object'),
  };
  return answeredLevel(metafields, nested);
}

function localeNote(type: ObjectTypeDoc): string {
  if (!type.localization) return '';
  return ` Localized: one Object per locale (${type.locales.join(', ') || 'none set'}), named by \`locale\`.`;
}

/** The generic Object schemas the per-type ones narrow (components Object, ObjectCreate, ObjectPatch). */
export interface BaseSchemas {
  object: Schema;
  create: Schema;
  patch: Schema;
}

/**
 * `base` with its `type` and `metadata` properties replaced: a copy rather than an allOf over the
 * open base, so that generated types hold metadata to the type's keys (an intersection with the
 * base's open metadata would let any key through).
 */
function narrowed(base: Schema, description: string, properties: Schema, required: string[]): Schema {
  const baseRequired = Array.isArray(base.required) ? (base.required as string[]) : [];
  const all = [...new Set([...baseRequired, ...required])];
  return {
    ...base,
    description,
    properties: { ...(base.properties as Schema | undefined), ...properties },
    ...(all.length > 0 ? { required: all } : {}),
  };
}

/** The component schemas of one Object type, by name. */
export function typeComponents(
  type: ObjectTypeDoc,
  names: ReadonlyMap<string, TypeSchemaNames>,
  base: BaseSchemas,
): Record<string, Schema> {
  const own = names.get(type.slug);
  if (!own) throw new Error(`no schema names for Object type ${type.slug}`);
  const slug = { const: type.slug };
  const requiresMetadata = type.metafields.some((mf) => mf.required === true);
  const note = localeNote(type);
  const title = JSON.stringify(type.title);
  return {
    [own.metadata]: {
      ...answeredMetadataSchema(type.metafields, names),
      description: `Metadata of a ${title} Object as answered: every Metafield's key, its value or its kind's empty value. Relationships are ids at depth 0 and the related Objects where depth expands them.`,
    },
    [own.metadataCreate]: {
      ...metadataJsonSchema(type.metafields, 'create'),
      description: `Metadata of a new ${title} Object: required Metafields must have a value; "" or null leave one empty.`,
    },
    [own.metadataPatch]: {
      ...metadataJsonSchema(type.metafields, 'patch'),
      description: `Metadata of a PATCH to a ${title} Object: only sent keys change. An Object with Metafields of its own (added through the legacy routes) also takes their keys.`,
    },
    [own.object]: narrowed(
      base.object,
      `A ${title} Object (type ${type.slug}) as answered without props.${note}`,
      { type: slug, metadata: componentRef(own.metadata) },
      ['type', 'metadata'],
    ),
    [own.create]: narrowed(
      base.create,
      `Body of POST /objects creating a ${title} Object.${note}`,
      { type: slug, metadata: componentRef(own.metadataCreate) },
      requiresMetadata ? ['type', 'metadata'] : ['type'],
    ),
    [own.patch]: narrowed(
      base.patch,
      `Body of PATCH /objects/{id} editing a ${title} Object.`,
      { metadata: componentRef(own.metadataPatch) },
      [],
    ),
  };
}
