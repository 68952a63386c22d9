import type { ObjectTypeDoc } from '../db/collections.js';
import { ValidationErrors } from '../errors/http-errors.js';
import type { Metafield } from '../types/metafield.js';
import { MAX_OWN_METAFIELDS } from '../metafields/own.js';
import { ownDefinitionSizeProblems, ownDefinitionsBytesProblem } from '../metafields/own-limits.js';
import { describeAjvErrors } from '../validation/ajv-messages.js';
import { validateBounded, validatorPairFor } from '../validation/ajv.js';
import { checkMetafieldDefinition } from '../metafields/metafield-definitions.js';
import { isPlainObject } from '../util/values.js';

/** Where the definitions came from in the request, for messages: a legacy body's `metafields` array. */
const ROOT = 'body.metafields';

/** A legacy entry that names a key and its value only: the value of a Metafield the Object has. */
function isValueOnly(entry: Record<string, unknown>): boolean {
  return entry.title === undefined;
}

function kindProblem(at: string, key: string, sent: unknown, kind: string, whose: string): string {
  return `${at}.type ${JSON.stringify(sent)} does not match Metafield "${key}", which ${whose} as "${kind}"`;
}

/** Problems of one new or redefined own Metafield: the Metafield schema and the Object type rules. */
function definitionProblems(entry: Record<string, unknown>, at: string, typeSlug: string, slugs: ReadonlySet<string>) {
  const oversized = ownDefinitionSizeProblems(entry, at);
  if (oversized.length > 0) return oversized;
  const invalid = validateBounded(validatorPairFor('Metafield'), entry);
  if (invalid) return describeAjvErrors(invalid.errors, at, 'Metafield');
  const def = entry as unknown as Metafield;
  const problems = checkMetafieldDefinition(def, at, { ownSlug: typeSlug, existingTypeSlugs: slugs });
  // Sorting reads the type's sortable Metafields only (their count is capped per type).
  if (def.sortable === true) problems.push(`${at}.sortable is allowed only on the Object type's Metafields`);
  return problems;
}

/**
 * The Object's own Metafields after a legacy write sent `entries` (its `metafields` array, values
 * already in v3 form): an entry whose key the type defines is a value of the type's Metafield
 * (its `type`, when sent, must be the type's); a key the Object already has is a value of its own
 * Metafield, redefined when the entry carries a whole definition (a `title`); any other key is a
 * new own Metafield and must be a whole definition. Own Metafields not sent are kept. Every
 * problem is reported in one 400; undefined when the Object has none.
 */
export function ownMetafieldsAfter(
  type: Pick<ObjectTypeDoc, 'slug' | 'metafields'>,
  current: readonly Metafield[] | undefined,
  entries: readonly unknown[],
  typeSlugs: ReadonlySet<string>,
): Metafield[] | undefined {
  const own = [...(current ?? [])];
  const problems = new ValidationErrors();
  entries.forEach((entry, i) => {
    if (!isPlainObject(entry) || typeof entry.key !== 'string') return;
    const at = `${ROOT}[${String(i)}]`;
    const key = entry.key;
    const typeField = type.metafields.find((m) => m.key === key);
    if (typeField) {
      if (entry.type !== undefined && entry.type !== typeField.type)
        problems.add(kindProblem(at, key, entry.type, typeField.type, `the type "${type.slug}" defines`));
      return;
    }
    const index = own.findIndex((m) => m.key === key);
    const existing = own[index];
    if (existing && entry.type !== undefined && entry.type !== existing.type) {
      problems.add(kindProblem(at, key, entry.type, existing.type, 'this Object defines'));
      return;
    }
    if (existing && isValueOnly(entry)) return;
    const found = definitionProblems(entry, at, type.slug, typeSlugs);
    for (const p of found) problems.add(p);
    if (found.length > 0) return;
    const def = entry as unknown as Metafield;
    if (existing) own[index] = def;
    else own.push(def);
  });
  if (own.length > MAX_OWN_METAFIELDS)
    problems.add(
      `an Object may have at most ${String(MAX_OWN_METAFIELDS)} Metafields of its own, this one would have ${String(own.length)}`,
    );
  const bytes = problems.count === 0 ? ownDefinitionsBytesProblem(own, ROOT) : null;
  if (bytes !== null) problems.add(bytes);
  problems.throwIfAny('Invalid metafields', 'invalid_body');
  return own.length > 0 ? own : undefined;
}
