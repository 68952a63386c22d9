import type { Operator } from '../query/operators.js';
import type { FieldValueType, Leaf } from '../query/filter-types.js';
import type { MetadataRenderContext } from './render-types.js';
import type { BoundsReport } from '../validation/json-bounds.js';
import type { Metafield, MetafieldOf, MetafieldType } from '../types/metafield.js';

export type Schema = Record<string, unknown>;

/**
 * Definition properties beyond those every Metafield has, grouped as schemas/Metafield.json
 * allows them: `length` is minlength and maxlength, `regex` is regex and regex_message.
 */
export type DefinitionAttribute =
  'options' | 'object_type' | 'repeater_fields' | 'children' | 'media_validation_type' | 'length' | 'regex';

export interface AttributeRule {
  required?: true;
  /** The schema of the property for this kind, when narrower than the common one. */
  schema?: Schema | true;
}

export interface DefinitionRules {
  /** Schema of the definition's default `value`, which is then required; false: the kind has no value. */
  value: Schema | boolean;
  /** The attributes a definition of this kind may carry; every other one is refused. */
  takes: Partial<Record<DefinitionAttribute, AttributeRule>>;
}

/** Schemas of nested levels, for parent and repeater values. */
export interface NestedSchemas {
  /** A parent's children, by the rules of the write (create or patch). */
  level: (fields: Metafield[]) => Schema;
  /** One repeater item: sending the array replaces it, so each item is checked whole. */
  item: (fields: Metafield[]) => Schema;
}

/** Schemas of values as reads answer them (the per-Bucket OpenAPI document, lib/openapi/type-schemas.ts). */
export interface AnswerSchemas extends NestedSchemas {
  /** A related Object as answered: its id at depth 0, the Object of `typeSlug` where a read expanded it. */
  related: (typeSlug: string | undefined) => Schema;
}

/** How one metadata path is queried. */
export interface PathQuery {
  /** The value type it is queried as; it decides the values and operators accepted (lib/query/validate-filter.ts). */
  as: FieldValueType;
  /** The operators that apply, when fewer than the value type allows. */
  operators?: readonly Operator[];
  /** The stored values one queried value stands for (a select-dropdown option value → its keys). */
  expand?: (value: Leaf) => Leaf[];
}

export interface KindQuery<T extends MetafieldType> extends PathQuery {
  /** Why paths below the Metafield's own cannot be queried; absent: they can (json values, nested Metafields). */
  closed?: string;
  /** Paths below it with a meaning of their own, queried on the Metafield's own stored value. */
  fields?: (mf: MetafieldOf<T>) => Record<string, PathQuery>;
}

/**
 * One kind of Metafield: everything the service knows about a `type`. The walker, the
 * validators, the serializers, the query translator and the generated schemas/Metafield.json
 * all read it from here; none of them names a type.
 */
export interface MetafieldKind<T extends MetafieldType> {
  definition: DefinitionRules;
  /** JSON Schema of a value in an Object's metadata that is not empty; `required` tightens it. */
  value: (mf: MetafieldOf<T>, nested: NestedSchemas) => Schema;
  /**
   * JSON Schema of a non-empty value as reads answer it, where that differs from what writes
   * take (`value`); called with `required` off, as answers may predate a Metafield turning required.
   */
  answer?: (mf: MetafieldOf<T>, nested: AnswerSchemas) => Schema;
  /** Why a value the schema refused does not fit, in words. */
  describe: (mf: MetafieldOf<T>, value: unknown) => string;
  /** The value of a Metafield with no value, as stored and as answered. */
  empty: () => unknown;
  /** "" and null are values of their own (json), not "no value". */
  emptyIsValue?: true;
  /** A valid, non-empty input value → its stored form; absent: stored as sent. */
  store?: (value: unknown, mf: MetafieldOf<T>) => unknown;
  /** A non-empty stored value → its answered form; absent: answered as stored. */
  render?: (value: unknown, mf: MetafieldOf<T>, ctx: MetadataRenderContext) => unknown;
  /**
   * A value as a read answers it (depth 0, or expanded) → the value a write takes, so content read
   * from a v3 API can be written back (bucketctl pull); absent: a write takes it as answered.
   */
  unrender?: (answered: unknown) => unknown;
  /** Checks in code beyond the schema (json bounds). */
  check?: (value: unknown, path: string) => BoundsReport;
  /** Whether Objects may be sorted by it (`sortable: true` on the definition). */
  sortable: boolean;
  query: KindQuery<T>;
  /** Nested Metafields: a parent's value is an object of them, a repeater's an array of such objects. */
  nested?: {
    fields: (mf: MetafieldOf<T>) => Metafield[];
    repeats: boolean;
    /** Every list of Metafield definitions the definition holds, with its path below it (definition checks). */
    lists: (mf: MetafieldOf<T>) => Array<{ at: string; fields: Metafield[] | undefined }>;
  };
  /** The related Object ids a value holds (input hex or stored ObjectIds). */
  relatedIds?: (value: unknown) => unknown[];
  /** The media name a value holds. */
  mediaName?: (value: unknown) => string | null;
  /** The option field a value names (select-dropdown: key; other option kinds: value), unique per definition. */
  optionField?: 'key' | 'value';
}
