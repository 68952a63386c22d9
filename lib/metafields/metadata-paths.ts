import type { ObjectTypeDoc } from '../db/collections.js';
import type { PathQuery } from './kind.js';
import { kindOf } from './kinds.js';
import { walkMetafields } from './walk.js';
import type { MetadataPath } from '../query/filter-types.js';

/** Two Object types naming the same path differently: the reading that refuses least wins, except that ids stay ids. */
function merge(a: MetadataPath, b: MetadataPath): MetadataPath {
  const valueType =
    a.valueType === b.valueType ? a.valueType : a.valueType === 'ref' || b.valueType === 'ref' ? 'ref' : 'text';
  const operators = a.operators && b.operators ? new Set([...a.operators, ...b.operators]) : undefined;
  const { expand: ea, closed } = a;
  const eb = b.expand;
  const expand = ea && eb ? (v: Parameters<typeof ea>[0]) => [...new Set([...ea(v), ...eb(v)])] : (ea ?? eb);
  return {
    storagePath: a.storagePath,
    valueType,
    ...(operators && { operators }),
    ...(expand && { expand }),
    ...((closed ?? b.closed) !== undefined && { closed: closed ?? b.closed }),
  };
}

function pathOf(storagePath: string, query: PathQuery, closed?: string): MetadataPath {
  return {
    storagePath,
    valueType: query.as,
    ...(query.operators && { operators: new Set(query.operators) }),
    ...(query.expand && { expand: query.expand }),
    ...(closed !== undefined && { closed }),
  };
}

/**
 * Every metadata path the Bucket's Object types give a meaning, by each Metafield's kind
 * (`query` in lib/metafields/kinds.ts): relationship paths hold ObjectIds, a select-dropdown's
 * `.key` and `.value` are read off its stored key. Paths not listed are queried as text.
 * Repeater item fields are addressed through the array (`metadata.links.target`), as MongoDB
 * matches paths into arrays of documents.
 */
export function metadataPaths(types: Iterable<Pick<ObjectTypeDoc, 'metafields'>>): ReadonlyMap<string, MetadataPath> {
  const out = new Map<string, MetadataPath>();
  const add = (path: string, entry: MetadataPath) => {
    const known = out.get(path);
    out.set(path, known ? merge(known, entry) : entry);
  };
  for (const type of types) {
    walkMetafields(type.metafields, undefined, {
      leaf: ({ mf, path }) => {
        const query = kindOf(mf).query;
        const at = `metadata.${path}`;
        add(at, pathOf(at, query, query.closed));
        for (const [name, sub] of Object.entries(query.fields?.(mf) ?? {})) add(`${at}.${name}`, pathOf(at, sub));
      },
    });
  }
  return out;
}
