/**
 * What an import will have written by the time it ends. Its records may name Objects and media
 * it has not written yet (relationships run in every direction, cycles included), so the checks
 * that look for them in the database look here for the ones they do not find.
 */
export interface PlannedContent {
  /** Object id (hex) → its type slug. */
  objects: ReadonlyMap<string, string>;
  /** Media name → its MIME type. */
  media: ReadonlyMap<string, string>;
}

export const NOTHING_PLANNED: PlannedContent = { objects: new Map(), media: new Map() };
