import type { ErrorObject } from 'ajv';
import { ajv } from './ajv.js';

/**
 * Finding the schema node behind an Ajv error: Ajv names the failing keyword's schema path only
 * relative to the schema resource it arose in, so messages that quote a schema's title,
 * alternatives or if/then condition first have to find that node.
 */

export type Node = Record<string, unknown>;
export type Branch = { ifNode: Node; branch: 'then' | 'else' };

export const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const unescape = (seg: string): string => seg.replace(/~1/g, '/').replace(/~0/g, '~');
export const instanceSegments = (p: string): string[] => (p === '' ? [] : p.slice(1).split('/').map(unescape));

/** Schema paths are URI fragments: percent-decoding comes first. */
function schemaSegments(p: string): string[] {
  const body = p.replace(/^#/, '');
  return body === ''
    ? []
    : body
        .slice(1)
        .split('/')
        .map((seg) => {
          try {
            return unescape(decodeURIComponent(seg));
          } catch {
            return unescape(seg);
          }
        });
}

function schemaById(id: string): unknown {
  return ajv.getSchema(id)?.schema;
}

const MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const ARRAY_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

/** Follows a schema path inside one schema; remembers the innermost if/then/else it went through. */
function walkSchemaPath(
  root: unknown,
  segments: string[],
): { node: unknown; found: boolean; branch?: Branch | undefined } {
  let node: unknown = root;
  let mode: 'schema' | 'map' | 'array' = 'schema';
  let branch: Branch | undefined;
  for (const seg of segments) {
    if (!isNode(node) && !Array.isArray(node)) return { node: undefined, found: false };
    if (mode === 'schema' && (seg === 'then' || seg === 'else') && isNode(node) && isNode(node.if))
      branch = { ifNode: node.if, branch: seg };
    const next: unknown = (node as Record<string, unknown>)[seg];
    if (next === undefined) return { node: undefined, found: false };
    mode = mode !== 'schema' ? 'schema' : MAP_KEYWORDS.has(seg) ? 'map' : ARRAY_KEYWORDS.has(seg) ? 'array' : 'schema';
    node = next;
  }
  return { node, found: true, branch };
}

/**
 * Ajv's schemaPath is relative to the schema resource ($id) the error arose in, without naming
 * it. The schema nodes that apply at the error's instance location, grouped by resource, tell
 * which resource it was.
 */
export function nodesAt(rootId: string, segments: string[]): Map<string, Set<Node>> {
  const out = new Map<string, Set<Node>>();
  const seen = new Map<Node, Set<number>>();
  const visit = (node: unknown, resource: string, i: number): void => {
    if (!isNode(node)) return;
    const at = seen.get(node) ?? new Set<number>();
    if (at.has(i)) return;
    seen.set(node, at.add(i));
    if (typeof node.$ref === 'string') {
      if (node.$ref.startsWith('#'))
        visit(walkSchemaPath(schemaById(resource), schemaSegments(node.$ref)).node, resource, i);
      else visit(schemaById(node.$ref), node.$ref, i);
    }
    for (const k of ['allOf', 'anyOf', 'oneOf'])
      if (Array.isArray(node[k])) for (const sub of node[k] as unknown[]) visit(sub, resource, i);
    for (const k of ['if', 'then', 'else', 'not']) visit(node[k], resource, i);
    const seg = segments[i];
    // Past the last segment: this node applies at the error's location.
    if (seg === undefined) {
      out.set(resource, (out.get(resource) ?? new Set<Node>()).add(node));
      return;
    }
    const props = isNode(node.properties) ? node.properties : {};
    if (seg in props) visit(props[seg], resource, i + 1);
    else visit(node.additionalProperties, resource, i + 1);
    if (isNode(node.patternProperties)) {
      for (const [pattern, sub] of Object.entries(node.patternProperties))
        if (new RegExp(pattern, 'u').test(seg)) visit(sub, resource, i + 1);
    }
    if (/^\d+$/.test(seg)) {
      const prefix = Array.isArray(node.prefixItems) ? (node.prefixItems as unknown[]) : [];
      visit(Number(seg) < prefix.length ? prefix[Number(seg)] : node.items, resource, i + 1);
    }
  };
  visit(schemaById(rootId), rootId, 0);
  return out;
}

export interface Located {
  error: ErrorObject;
  /** The schema object holding the failing keyword, when it could be found. */
  holder?: unknown;
  branch?: Branch | undefined;
}

/** `candidates`: resource id → nodes applying at the error's location (null: not known). */
export function locate(error: ErrorObject, candidates: Map<string, Set<Node> | null>): Located {
  // A schema Ajv inlined where it is referenced names its resource first: "Emoji/pattern".
  const inlined = /^([^#/]+)\//.exec(error.schemaPath)?.[1];
  const segments = schemaSegments(inlined === undefined ? error.schemaPath : error.schemaPath.slice(inlined.length));
  const keyword = segments.pop();
  const tried = inlined === undefined ? candidates : new Map([[inlined, candidates.get(inlined) ?? null]]);
  for (const [id, nodes] of tried) {
    const { node, found, branch } = walkSchemaPath(schemaById(id), segments);
    if (!found) continue;
    // A false schema sits one level below the location it rejects, so only its path can be checked.
    const fits =
      error.keyword === 'false schema'
        ? node === false
        : isNode(node) && keyword !== undefined && keyword in node && (nodes === null || nodes.has(node));
    if (fits) return { error, holder: node, branch };
  }
  return { error };
}
