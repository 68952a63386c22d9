import { BadRequestError } from '../errors/http-errors.js';
import { quote } from '../util/quote.js';
import { OBJECT_SORT_FIELDS } from '../db/indexes.js';

export type SortDirection = 1 | -1;
type SortField = [storagePath: string, SortDirection];
/** `fields` is never empty, so callers may read the leading field's direction. */
export type SortSpec = { random: true } | { random: false; fields: [SortField, ...SortField[]] };

/** `legacy-media`: the v1/v2 media list, which also takes `created` and `size`. */
export type SortTarget = 'objects' | 'media' | 'legacy-media' | 'revisions';

export interface SortContext {
  /** Keys of the queried type's Metafields marked sortable (without `metadata.`). */
  sortableKeys: ReadonlySet<string>;
  allowed: SortTarget;
}

interface TargetRules {
  fields: readonly string[];
  /** Older names of a field (`created` → `created_at`), taken as that field. */
  aliases?: ReadonlyMap<string, string>;
  random: boolean;
  metadata: boolean;
  fallback: string;
  /** What messages call the target, when not its name. */
  label?: string;
}

/** The fields a media list sorts by (v3), and those the v1/v2 one adds; lib/store/media.ts indexes each. */
export const MEDIA_SORT_FIELDS = ['created_at', 'modified_at'] as const;
export const LEGACY_MEDIA_SORT_FIELDS = [...MEDIA_SORT_FIELDS, 'size'] as const;

const RULES: Record<SortTarget, TargetRules> = {
  objects: { fields: OBJECT_SORT_FIELDS, random: true, metadata: true, fallback: '-order' },
  media: { fields: MEDIA_SORT_FIELDS, random: true, metadata: false, fallback: '-created_at' },
  'legacy-media': {
    fields: LEGACY_MEDIA_SORT_FIELDS,
    aliases: new Map([['created', 'created_at']]),
    random: true,
    metadata: false,
    fallback: '-created_at',
    label: 'media',
  },
  revisions: { fields: ['created_at'], random: false, metadata: false, fallback: '-created_at' },
};

const METAFIELD_KEY = /^[A-Za-z0-9_-]+$/;

function allowedValues(rules: TargetRules): string {
  const values = [...rules.fields, ...(rules.aliases?.keys() ?? [])].flatMap((f) => [f, `-${f}`]);
  if (rules.metadata) values.push('metadata.<key>', '-metadata.<key>');
  if (rules.random) values.push('random');
  return values.join(', ');
}

/**
 * `sort` as storage sort fields. `_id` always comes last in the direction of the field before
 * it, so the order is total and an `after` cursor can resume exactly where a page ended.
 */
export function parseSort(raw: string | undefined, ctx: SortContext): SortSpec {
  const rules = RULES[ctx.allowed];
  const value = raw === undefined || raw.trim() === '' ? rules.fallback : raw.trim();
  if (value === 'random' && rules.random) return { random: true };
  const direction: SortDirection = value.startsWith('-') ? -1 : 1;
  const given = direction === -1 ? value.slice(1) : value;
  const name = rules.aliases?.get(given) ?? given;
  if (rules.fields.includes(name))
    return {
      random: false,
      fields: [
        [name, direction],
        ['_id', direction],
      ],
    };
  if (rules.metadata && name.startsWith('metadata.')) {
    const key = name.slice('metadata.'.length);
    if (METAFIELD_KEY.test(key) && ctx.sortableKeys.has(key)) {
      return {
        random: false,
        fields: [
          [name, direction],
          ['_id', direction],
        ],
      };
    }
    throw new BadRequestError(
      `Cannot sort by ${quote(name)}: the Metafield ${quote(key)} must be marked sortable on the Object type, ` +
        'and sorting by metadata requires "type" in the query',
      'invalid_parameter',
    );
  }
  throw new BadRequestError(
    `Invalid sort ${quote(value)}; allowed values for ${rules.label ?? ctx.allowed} are ${allowedValues(rules)}`,
    'invalid_parameter',
  );
}
