import type { Metafield, ObjectTypeDoc } from '../db/collections.js';

function collect(metafields: Metafield[] | undefined, prefix: string, out: Set<string>): void {
  for (const m of metafields ?? []) {
    const path = `${prefix}.${m.key}`;
    if (m.type === 'object' || m.type === 'objects') out.add(path);
    if (m.type === 'parent') collect(m.children, path, out);
    if (m.type === 'repeater') collect(m.repeater_fields, path, out);
  }
}

/**
 * Metadata paths holding Object ids (stored as ObjectIds), over the given types: a query on
 * them converts id strings before matching. Repeater item fields are addressed through the
 * array (`metadata.links.target`), as MongoDB matches paths into arrays of documents.
 */
export function relationshipPaths(types: Iterable<ObjectTypeDoc>): Set<string> {
  const out = new Set<string>();
  for (const t of types) collect(t.metafields, 'metadata', out);
  return out;
}
