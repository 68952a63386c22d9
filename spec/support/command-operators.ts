import type { CommandStartedEvent, MongoClient } from 'mongodb';
import { REQUEST_COUNTS_COLLECTION } from '../../lib/limits/monthly-requests.js';
import { RATE_LIMITS_COLLECTION } from '../../lib/limits/rate-limits.js';
import { OPERATORS } from '../../lib/query/operators.js';

/** What the query language itself may write: the Mongo name of every entry of the operator table. */
export const QUERY_OPERATORS: readonly string[] = Object.values(OPERATORS).flatMap((spec) =>
  Object.values(spec as Record<string, { mongo: string }>).map((usage) => usage.mongo),
);

/**
 * What the read path adds around a translated filter: the stages of a random page
 * (lib/objects/list/object-list-query.ts), `$in` of the status view (lib/objects/object-views.ts)
 * and of relationship reads by `_id` (lib/objects/populate/related.ts), `$type` of keyset cursors
 * (lib/query/cursor.ts), `$group` and `$sum` of the driver's countDocuments, and `$options`
 * paired with every `$regex`.
 */
const SERVICE_OPERATORS = ['$match', '$sample', '$project', '$in', '$group', '$type', '$sum'];

/** Every operator a read of Objects may send to MongoDB; anything else came from a client. */
export const ALLOWED_OPERATORS: ReadonlySet<string> = new Set([...QUERY_OPERATORS, ...SERVICE_OPERATORS]);

/** Never to be sent for any input: they run code or open query forms the language does not have. */
export const FORBIDDEN_OPERATORS = [
  '$where',
  '$function',
  '$accumulator',
  '$expr',
  '$jsonSchema',
  '$text',
  '$merge',
  '$out',
  '$unionWith',
  '$elemMatch',
];

/** The driver's own fields of a command envelope (not part of what the service asked for). */
const ENVELOPE = new Set(['$db', '$readPreference', '$clusterTime', '$readConcern']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Every key starting with `$` anywhere in a command (BSON values such as ObjectId are leaves),
 * but for the driver's envelope fields at its top level.
 */
export function operatorsIn(command: Record<string, unknown>): Set<string> {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
    } else if (isPlainObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        if (key.startsWith('$')) found.add(key);
        walk(child);
      }
    }
  };
  for (const [key, value] of Object.entries(command)) {
    if (ENVELOPE.has(key)) continue;
    if (key.startsWith('$')) found.add(key);
    walk(value);
  }
  return found;
}

export interface CommandLog {
  /** Commands seen since the last reset, by name. */
  readonly counts: Map<string, number>;
  /** Operators outside ALLOWED_OPERATORS, each with one command that carried it. */
  readonly unexpected: Map<string, string>;
  readonly seen: Set<string>;
  stop(): void;
}

const GATE_COLLECTIONS = new Set([RATE_LIMITS_COLLECTION, REQUEST_COUNTS_COLLECTION]);

/**
 * The request gate's bookkeeping (lib/middleware/request-gate.ts): a claim of a block of the
 * per-minute budget or the monthly count's flush, sent beside some requests, not by what they read.
 */
export function isGateCommand(event: CommandStartedEvent): boolean {
  return GATE_COLLECTIONS.has(String(event.command[event.commandName]));
}

/** Watches every command the (monitoring) client sends until stop(), the request gate's aside. */
export function watchOperators(client: MongoClient): CommandLog {
  const log: CommandLog = {
    counts: new Map(),
    unexpected: new Map(),
    seen: new Set(),
    stop: () => client.off('commandStarted', listener),
  };
  const listener = (event: CommandStartedEvent): void => {
    if (isGateCommand(event)) return;
    log.counts.set(event.commandName, (log.counts.get(event.commandName) ?? 0) + 1);
    for (const op of operatorsIn(event.command)) {
      log.seen.add(op);
      if (!ALLOWED_OPERATORS.has(op) && !log.unexpected.has(op))
        log.unexpected.set(op, JSON.stringify(event.command).slice(0, 400));
    }
  };
  client.on('commandStarted', listener);
  return log;
}

/**
 * A find's filter by its fields, `_id` written `_id $in` when it asks for several ids: a kept
 * order's page (and a depth lookup) is `{_id: {$in}, bucket_id}`, a single Object's lookup
 * `{_id, bucket_id}`.
 */
export function filterFields(filter: Record<string, unknown> | undefined): string[] {
  const f = filter ?? {};
  const several = (v: unknown) => typeof v === 'object' && v !== null && '$in' in v;
  return Object.keys(f).map((k) => (k === '_id' && several(f._id) ? '_id $in' : k));
}

/** Whether a find read Objects by a list of ids and their Bucket alone (a kept order's page). */
export const byIdsAlone = (fields: readonly string[]): boolean => fields.join() === '_id $in,bucket_id';
