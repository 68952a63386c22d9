/**
 * The names of the Metafield kinds. Each has exactly one entry in METAFIELD_KINDS
 * (lib/metafields/kinds.ts), which the compiler holds to this list in both directions.
 */
export type MetafieldType =
  | 'text'
  | 'textarea'
  | 'html-textarea'
  | 'select-dropdown'
  | 'object'
  | 'objects'
  | 'file'
  | 'date'
  | 'radio-buttons'
  | 'check-boxes'
  | 'repeater'
  | 'parent'
  | 'markdown'
  | 'json'
  | 'switch'
  | 'number';

export interface MetafieldOption {
  key?: string;
  value: string;
}

/** MIME top-level types a file Metafield may restrict its media to. */
export const MEDIA_VALIDATION_TYPES = ['image', 'video', 'audio', 'application', 'text'] as const;

/** The fields every Metafield definition may carry; which apply depends on `type` (schemas/Metafield.json). */
interface MetafieldFields {
  id?: string;
  title: string;
  key: string;
  value?: unknown;
  required?: boolean;
  regex?: string;
  regex_message?: string;
  minlength?: number;
  maxlength?: number;
  /** select-dropdown/radio-buttons/check-boxes: option objects; switch: "true,false" or "yes,no". */
  options?: MetafieldOption[] | string;
  object_type?: string;
  repeater_fields?: Metafield[];
  media_validation_type?: (typeof MEDIA_VALIDATION_TYPES)[number];
  sortable?: boolean;
  helptext?: string;
}

/** One item of a repeater: its own copies of the repeater_fields. */
export interface RepeatingItem {
  id?: string;
  type: 'repeating_item';
  title?: string;
  key?: string;
  children: Metafield[];
}

/** What `children` holds: nested Metafields for a parent, repeating items for a repeater, nothing otherwise. */
type ChildrenOf<T extends MetafieldType> = T extends 'parent'
  ? Metafield[]
  : T extends 'repeater'
    ? RepeatingItem[]
    : never;

/** A Metafield definition of one type. */
export type MetafieldOf<T extends MetafieldType> = MetafieldFields & { type: T; children?: ChildrenOf<T> };

/** A Metafield definition as stored on its Object type (and answered as sent). */
export type Metafield = { [T in MetafieldType]: MetafieldOf<T> }[MetafieldType];
