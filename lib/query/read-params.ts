import { isObjectIdHex } from '../util/values.js';
import { quote } from '../util/quote.js';
import { MAX_DEPTH } from './limits.js';
import { parseProps } from './props.js';

/** The states of a webhook delivery, read here as the `delivery_status` filter and stored by lib/webhooks. */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'delivered', 'failed'];

export type StatusFilter = 'published' | 'draft' | 'any';
export const STATUSES: readonly StatusFilter[] = ['published', 'draft', 'any'];

/**
 * Every query-string parameter a v3 route may take, as handlers receive it. Absent text is
 * undefined; `query` and `sort` stay text here because their grammar depends on the Bucket's
 * Object types (compileFilter and parseSort check them once those are known).
 */
export interface ParamValues {
  read_key: string | undefined;
  preview_token: string | undefined;
  query: string | undefined;
  props: readonly string[] | null;
  status: StatusFilter;
  sort: string | undefined;
  limit: number;
  skip: number;
  /** Id of the last item of the previous page, lower-case hex. */
  after: string | undefined;
  depth: number;
  useCache: boolean;
  /** A list matching nothing answers 200 with no items rather than 404: clients that page through lists ask for it. */
  allow_empty: boolean;
  pretty: boolean;
  trigger_webhook: boolean;
  /** v2 Object reads: add each Object's `metafields` array. */
  show_metafields: boolean;
  /** The media list's folder filter: a folder slug. */
  folder: string | undefined;
  /** A media folder delete: the folder that receives its media. */
  move_to: string | undefined;
  /** A webhook delivery log's `status` filter; undefined: every status. */
  delivery_status: DeliveryStatus | undefined;
  /** GraphQL over HTTP GET: the operation's variables (JSON text) and the operation to run. */
  variables: string | undefined;
  operationName: string | undefined;
  /** The change feed's filters: Object type slugs and event names, comma-separated (lib/realtime/). */
  types: string | undefined;
  events: string | undefined;
  /** The change feed: resume after this event id (EventSource's Last-Event-ID, for clients that cannot send it). */
  last_event_id: string | undefined;
  /** The change feed: a one-use stream ticket, for browsers signed in with an account. */
  ticket: string | undefined;
}

export type ParamName = keyof ParamValues;

/** The parameters one route declared, read once; `pretty` applies to every response, so every route has it. */
export type Params<K extends ParamName> = Readonly<Pick<ParamValues, K | 'pretty'>>;

interface Rule<T> {
  /** The spellings clients send, documented one first; giving two of them counts as a repeat. */
  spellings?: readonly [string, ...string[]];
  fallback: T;
  /** The value of non-empty raw text; problems go to `report` and the fallback stands in. */
  parse: (raw: string, name: string, report: (problem: string) => void) => T;
}

const text: Rule<string | undefined> = { fallback: undefined, parse: (raw) => raw };

function flag(fallback: boolean): Rule<boolean> {
  return {
    fallback,
    parse: (raw, name, report) => {
      if (raw === 'true' || raw === '1') return true;
      if (raw === 'false' || raw === '0') return false;
      report(`${name} must be true or false, got ${quote(raw)}`);
      return fallback;
    },
  };
}

const UNSIGNED = /^\d+$/;

function integer(min: number, max: number, fallback: number): Rule<number> {
  const rule = max === Number.MAX_SAFE_INTEGER ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  return {
    fallback,
    parse: (raw, name, report) => {
      const n = UNSIGNED.test(raw) ? Number(raw) : NaN;
      if (Number.isSafeInteger(n) && n >= min && n <= max) return n;
      report(`${name} must be ${rule}, got ${quote(raw)}`);
      return fallback;
    },
  };
}

const RULES: { readonly [K in ParamName]: Rule<ParamValues[K]> } = {
  read_key: text,
  preview_token: text,
  query: text,
  props: { fallback: null, parse: (raw, _name, report) => parseProps(raw, report) },
  status: {
    fallback: 'published',
    parse: (raw, name, report) => {
      const status = STATUSES.find((s) => s === raw);
      if (status === undefined) report(`${name} must be one of ${STATUSES.join(', ')}, got ${quote(raw)}`);
      return status ?? 'published';
    },
  },
  sort: text,
  limit: integer(1, Number.MAX_SAFE_INTEGER, 1000),
  skip: integer(0, Number.MAX_SAFE_INTEGER, 0),
  after: {
    fallback: undefined,
    parse: (raw, name, report) => {
      if (isObjectIdHex(raw)) return raw.toLowerCase();
      report(`${name} must be the id of the previous page's last item (24 hexadecimal characters), got ${quote(raw)}`);
      return undefined;
    },
  },
  depth: integer(0, MAX_DEPTH, 0),
  useCache: { ...flag(true), spellings: ['useCache', 'use_cache'] },
  allow_empty: flag(false),
  pretty: flag(false),
  trigger_webhook: flag(false),
  show_metafields: flag(false),
  folder: text,
  move_to: text,
  variables: text,
  operationName: text,
  delivery_status: {
    spellings: ['status'],
    fallback: undefined,
    parse: (raw, name, report) => {
      const status = DELIVERY_STATUSES.find((s) => s === raw);
      if (status === undefined) report(`${name} must be one of ${DELIVERY_STATUSES.join(', ')}, got ${quote(raw)}`);
      return status;
    },
  },
  types: text,
  events: text,
  last_event_id: text,
  ticket: text,
};

/** The name a client sends a parameter by (its documented spelling). */
export function queryName(name: ParamName): string {
  return RULES[name].spellings?.[0] ?? name;
}

/** Every parameter in the order problems are reported. */
const ALL_NAMES = Object.keys(RULES) as ParamName[];

/** What one route takes; declared once next to the route and checked against the OpenAPI document. */
export interface ParamSet<K extends ParamName> {
  readonly names: readonly (K | 'pretty')[];
  /** Parameters a client might expect here that would silently do nothing: a 400 with this message. */
  readonly refused: ReadonlyMap<ParamName, string>;
  /** Problems with parameters outside the table (v1 filters on a list), reported with the rest. */
  readonly check?: (query: Readonly<Record<string, unknown>>) => string[];
}

export function paramSet<K extends ParamName>(
  names: readonly K[],
  refused: Partial<Record<Exclude<ParamName, K>, string>> = {},
  check?: (query: Readonly<Record<string, unknown>>) => string[],
): ParamSet<K> {
  const wanted = new Set<ParamName>([...names, 'pretty']);
  return Object.freeze({
    names: ALL_NAMES.filter((n): n is K | 'pretty' => wanted.has(n)),
    refused: new Map(Object.entries(refused) as [ParamName, string][]),
    ...(check && { check }),
  });
}

/** Routes that take nothing but `pretty` (writes, status). */
export const NO_PARAMS = paramSet([]);

/** Every delete route (Object type, Object, media). */
export const DELETE_PARAMS = paramSet(['trigger_webhook']);

/** One parameter's value, or its fallback when absent (an empty value counts as absent) or invalid. */
function readOne<N extends ParamName>(
  name: N,
  query: Readonly<Record<string, unknown>>,
  report: (problem: string) => void,
): { value: ParamValues[N]; given: boolean } {
  const rule: Rule<ParamValues[N]> = RULES[name];
  const present = (rule.spellings ?? [name]).filter((s) => Object.hasOwn(query, s));
  const [spelling] = present;
  if (spelling === undefined) return { value: rule.fallback, given: false };
  const raw = query[spelling];
  if (present.length > 1) {
    report(`${present.join(' and ')} are one parameter: give it once`);
    return { value: rule.fallback, given: true };
  }
  if (typeof raw !== 'string') {
    report(`${spelling} must be given once${Array.isArray(raw) ? `, got ${raw.length} values` : ''}`);
    return { value: rule.fallback, given: true };
  }
  if (raw === '') return { value: rule.fallback, given: false };
  return { value: rule.parse(raw, spelling, report), given: true };
}

function assign<N extends ParamName>(out: Partial<ParamValues>, name: N, value: ParamValues[N]): void {
  out[name] = value;
}

/**
 * A route's parameters from a parsed query string, every problem listed. Values that have a
 * problem hold their default, so `pretty` can still shape the error body when only it is valid.
 * Parameters the route does not take are ignored: clients append extras unconditionally.
 */
export function parseReadParams<K extends ParamName>(
  query: Readonly<Record<string, unknown>>,
  set: ParamSet<K>,
): { values: Params<K>; problems: string[] } {
  const problems: string[] = [];
  const report = (problem: string): void => {
    problems.push(problem);
  };
  const out: Partial<ParamValues> = {};
  const given = new Set<ParamName>();
  for (const name of set.names) {
    const one = readOne(name, query, report);
    assign(out, name, one.value);
    if (one.given) given.add(name);
  }
  if (given.has('skip') && given.has('after')) report('skip cannot be combined with after');
  for (const [name, message] of set.refused) {
    if (readOne(name, query, () => undefined).given) report(message);
  }
  problems.push(...(set.check?.(query) ?? []));
  return { values: Object.freeze(out) as Params<K>, problems };
}
