/*
 * The shapes a filter is checked against, apart from the checker: Metafield kinds say how their
 * paths are queried in these terms, and the checker reads them, so they sit below both.
 */

/** How one `metadata.…` path of a query is checked and translated. */
export interface MetadataPath {
  /** Where the value is stored: the path itself, or its Metafield's path for a sub-field such as `.key`. */
  storagePath: string;
  valueType: FieldValueType;
  /** The operators that apply; absent: those the value type allows. */
  operators?: ReadonlySet<string>;
  /** The stored values one queried value stands for. */
  expand?: (value: Leaf) => Leaf[];
  /** Why paths below this one cannot be queried. */
  closed?: string;
}

export interface FilterContext {
  /** Metadata paths with a meaning of their own (lib/metafields/metadata-paths.ts); any other is text. */
  metadataPaths?: ReadonlyMap<string, MetadataPath>;
  /**
   * The queryable keys besides `metadata.<key>`, for resources other than Objects (media).
   * Absent: the Object keys, and `status` is pointed to its own parameter.
   */
  fields?: ReadonlyMap<string, FieldInfo>;
}

/** What a queryable key stores, which decides the values it accepts and how they are converted. */
export type FieldValueType = 'text' | 'id' | 'ref' | 'date' | 'number';

export interface FieldInfo {
  storagePath: string;
  valueType: FieldValueType;
  /** The operators that apply, when fewer than the value type allows. */
  operators?: ReadonlySet<string>;
  /** The stored values one queried value stands for. */
  expand?: MetadataPath['expand'];
}

/** One value of a condition. */
export type Leaf = string | number | boolean | null;
