import { LRUCache } from 'lru-cache';
import type { ObjectTypeDoc } from '../db/collections.js';
import type { Metafield } from '../types/metafield.js';
import type { OwnVariant } from './own.js';
import type { NestedSchemas, Schema } from './kind.js';
import { kindOf } from './kinds.js';
import { newAjv, validateBounded } from '../validation/ajv.js';
import { MAX_FULLY_CHECKED_VALUES } from '../validation/limits.js';
import { metadataProblems } from './metadata-problems.js';
import { MetafieldRegexes } from '../validation/metadata-regex.js';

export type MetadataMode = 'create' | 'patch';

/** "" and null mean "no value" for every non-required Metafield, whatever its kind. */
const EMPTY: Schema = { enum: ['', null] };

/**
 * The JSON Schema (draft 2020-12) of an Object's `metadata` for one Object type, from each
 * kind's `value` schema. Create mode lists required keys; patch mode checks only the keys sent,
 * at every depth of parents, as a patch changes only those (the write then checks `required`
 * on the result, see missingRequired). A repeater item replaces its whole stored value, so items
 * always use create rules. `regex` is deliberately absent: it is checked in code with JavaScript
 * semantics so that `regex_message` can be reported (see MetadataValidators).
 */
export function metadataJsonSchema(metafields: Metafield[], mode: MetadataMode): object {
  return (mode === 'create' ? CREATE : PATCH).level(metafields);
}

const CREATE: NestedSchemas = {
  level: (fields) => levelSchema(fields, true, CREATE),
  item: (fields) => levelSchema(fields, true, CREATE),
};
const PATCH: NestedSchemas = {
  level: (fields) => levelSchema(fields, false, PATCH),
  item: CREATE.item,
};

function levelSchema(metafields: Metafield[], requireKeys: boolean, nested: NestedSchemas): Schema {
  // fromEntries defines own properties, so a key like "__proto__" cannot alter the prototype.
  const properties = Object.fromEntries(metafields.map((mf) => [mf.key, valueSchema(mf, nested)]));
  const required = requireKeys ? metafields.filter((mf) => mf.required === true).map((mf) => mf.key) : [];
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    ...(required.length > 0 ? { required: [...new Set(required)] } : {}),
  };
}

function valueSchema(mf: Metafield, nested: NestedSchemas): Schema {
  const kind = kindOf(mf);
  const shape = kind.value(mf, nested);
  // Where "" and null are values (json), `required` refuses exactly those.
  if (kind.emptyIsValue === true) return mf.required === true ? { ...shape, not: EMPTY } : shape;
  return mf.required === true ? shape : { anyOf: [EMPTY, shape] };
}

export type MetadataValidator = (metadata: unknown) => string[];

/** The fields of an Object type the validator depends on; `slug` only names the type in messages. */
export type MetadataTypeInput = Pick<ObjectTypeDoc, '_id' | 'modified_at' | 'metafields'> & {
  slug?: string;
} & OwnVariant;

export const METADATA_VALIDATOR_CACHE_LIMIT = 500;

interface CacheEntry {
  stamp: number;
  /** The schema object each Ajv instance compiled (and keeps until it is removed). */
  schemas: [object, object];
  validate: MetadataValidator;
}

/**
 * Validators of `metadata` compiled from stored Object types, one per (type, mode, slug, own Metafields), with
 * their own Ajv and regexes: one per app (see lib/app-state.ts), so apps on different
 * databases never see each other's types. A newer modified_at replaces the entry in place, so
 * stale validators of an edited type never linger; the least recently used goes first.
 */
export class MetadataValidators {
  private readonly ajv = newAjv();
  private readonly ajvFirstError = newAjv({ allErrors: false });
  private readonly regexes = new MetafieldRegexes();
  private readonly entries = new LRUCache<string, CacheEntry>({
    max: METADATA_VALIDATOR_CACHE_LIMIT,
    // Replaced or evicted: Ajv keeps every compiled schema object in its own cache; without this it would grow forever.
    dispose: (entry) => {
      this.ajv.removeSchema(entry.schemas[0]);
      this.ajvFirstError.removeSchema(entry.schemas[1]);
    },
  });

  /**
   * A validator for the `metadata` of Objects of `type`, compiled once per type revision.
   * It returns one message per offending key; an empty list means valid.
   */
  for(type: MetadataTypeInput, mode: MetadataMode): MetadataValidator {
    // An Object with own Metafields validates by its type's and its own: one entry per such set.
    const key = `${String(type._id)}|${mode}|${type.slug ?? ''}|${type.own_variant ?? ''}`;
    const stamp = type.modified_at.getTime();
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp) return hit.validate;

    const metafields = type.metafields;
    // Each instance gets its own copy: Ajv caches compiled code by schema object.
    const schemas: [object, object] = [metadataJsonSchema(metafields, mode), metadataJsonSchema(metafields, mode)];
    const pair = { all: this.ajv.compile(schemas[0]), first: this.ajvFirstError.compile(schemas[1]) };
    const typeSlug = type.slug;
    const regexes = this.regexes;
    const validate: MetadataValidator = (metadata) => {
      const invalid = validateBounded(pair, metadata);
      const problems = metadataProblems(metafields, metadata, invalid?.errors ?? [], regexes, typeSlug);
      if (invalid?.partial)
        problems.push(`only the first problem is listed for metadata of more than ${MAX_FULLY_CHECKED_VALUES} values`);
      return problems;
    };
    this.entries.set(key, { stamp, schemas, validate });
    return validate;
  }
}
