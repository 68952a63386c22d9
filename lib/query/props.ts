import { quote } from '../util/quote.js';
import { MAX_PROPS } from './limits.js';

const PROP = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;
/** Walking a path with these would reach JavaScript prototypes, not API fields. */
const RESERVED_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** Invalid entries quoted in the message; the rest are counted. */
const MAX_NAMED_BAD = 10;

/** API field names whose stored name differs. */
const STORAGE_NAMES: ReadonlyMap<string, string> = new Map([
  ['id', '_id'],
  ['bucket', 'bucket_id'],
  // An Object's version is the time of its write (lib/http/if-match.ts).
  ['version', 'modified_at'],
]);

/**
 * `props` as a list of dotted paths, or null for every property. Duplicates are dropped, order
 * kept; empty entries (`a,,b`, a trailing comma) are ignored because clients build the list by
 * joining arrays. Problems go to `report`, and then the result is null.
 */
export function parseProps(raw: string, report: (problem: string) => void): readonly string[] | null {
  const props = [
    ...new Set(
      raw
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    ),
  ];
  if (props.length === 0) return null;
  const bad = props.filter((p) => !PROP.test(p) || p.split('.').some((s) => RESERVED_SEGMENTS.has(s)));
  if (bad.length > 0) {
    const named = bad.slice(0, MAX_NAMED_BAD).map(quote);
    if (bad.length > MAX_NAMED_BAD) named.push(`and ${bad.length - MAX_NAMED_BAD} more`);
    report(`props: ${named.join(', ')} (each must be a dotted path of letters, digits, _ and -)`);
  }
  if (props.length > MAX_PROPS) report(`props: more than ${MAX_PROPS} properties`);
  return bad.length > 0 || props.length > MAX_PROPS ? null : props;
}

/**
 * The storage projection that lets the renderer produce `props`, or null for whole documents.
 * A metadata prop projects its whole Metafield value (`metadata.image.imgproc_url` →
 * `metadata.image`) because values are reshaped at render time from the stored value and the
 * Object type and the Object's own Metafields (hence `type`, `own_metafields`); relationship
 * expansion reads `refs`. A path whose ancestor is also
 * projected is dropped, as MongoDB rejects a projection holding both (path collision).
 */
export function propsProjection(props: readonly string[] | null): Record<string, 1> | null {
  if (props === null) return null;
  const paths = new Set<string>(['_id']);
  for (const prop of props) {
    // split always yields at least one element, so the default never applies.
    const [head = prop, second] = prop.split('.');
    if (head === 'metadata') {
      paths.add(second === undefined ? 'metadata' : `metadata.${second}`);
      paths.add('type');
      paths.add('own_metafields');
      paths.add('refs');
    } else {
      paths.add(STORAGE_NAMES.get(head) ?? head);
    }
  }
  const projection: Record<string, 1> = {};
  for (const path of [...paths].sort()) {
    const covered = [...paths].some((other) => path.startsWith(`${other}.`));
    if (!covered) projection[path] = 1;
  }
  return projection;
}

/** A trie of requested paths; `true` means the whole value at that point. */
type PropTree = Map<string, PropTree | true>;

function buildTree(props: readonly string[]): PropTree {
  const root: PropTree = new Map();
  for (const prop of props) {
    const segments = prop.split('.');
    let node = root;
    for (const [i, seg] of segments.entries()) {
      const existing = node.get(seg);
      if (existing === true) break;
      if (i === segments.length - 1) {
        node.set(seg, true);
        break;
      }
      const child: PropTree = existing ?? new Map<string, PropTree | true>();
      node.set(seg, child);
      node = child;
    }
  }
  return root;
}

/** Own-property write: a JSON Metafield value may legally hold a `__proto__` key. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * The parts of `value` the tree asks for, with MongoDB projection semantics: through an array
 * the tree applies to each element (object elements are narrowed, scalar elements dropped);
 * an object keeps only the requested keys it has; a scalar where the path continues is absent.
 */
function pick(value: unknown, tree: PropTree): unknown {
  if (Array.isArray(value)) {
    return value.filter((el) => el !== null && typeof el === 'object').map((el) => pick(el, tree));
  }
  if (value === null || typeof value !== 'object') return undefined;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of tree) {
    if (!Object.hasOwn(source, key)) continue;
    const picked = sub === true ? source[key] : pick(source[key], sub);
    if (picked !== undefined) put(out, key, picked);
  }
  return out;
}

/**
 * An already-rendered API object narrowed to `props`. Props it does not have are simply absent;
 * `metadata.authors.title` over expanded Objects keeps each author's `title`.
 */
export function pickProps(rendered: Record<string, unknown>, props: readonly string[] | null): Record<string, unknown> {
  if (props === null) return rendered;
  return pick(rendered, buildTree(props)) as Record<string, unknown>;
}

/** What `props` leaves of a rendered item: all of it, or any subset of its fields, nested ones too. */
export type Picked = Record<string, unknown>;
