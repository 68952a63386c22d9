import type { CommandStartedEvent, Document, MongoClient } from 'mongodb';
import { BUCKET_SCOPED_COLLECTIONS } from '../../lib/db/collections.js';
import { pinnedFields } from './index-contract.js';
import { singleCommands, type SentCommand } from './bulk-write-ops.js';

const SCOPED = new Set<string>(BUCKET_SCOPED_COLLECTIONS);

/** The filters a command selects documents by. */
function filtersOf(e: SentCommand): Document[] {
  const c = e.command;
  switch (e.commandName) {
    case 'find':
    case 'count':
    case 'distinct':
      return [(c.filter ?? c.query ?? {}) as Document];
    case 'findAndModify':
      return [(c.query ?? {}) as Document];
    case 'aggregate': {
      const first = (c.pipeline as Document[] | undefined)?.[0];
      return [first && '$match' in first ? (first.$match as Document) : {}];
    }
    case 'update':
      return ((c.updates ?? []) as Document[]).map((u) => u.q as Document);
    case 'delete':
      return ((c.deletes ?? []) as Document[]).map((d) => d.q as Document);
    default:
      return [];
  }
}

/** A filter's shape: its field names, values left out (as 1). */
function shape(filter: Document): string {
  // Plain objects are operators or sub-documents, kept; values (ObjectIds, dates, arrays…) become 1.
  const plain = (v: unknown) => v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;
  return JSON.stringify(filter, (k, v: unknown) => (k !== '' && !plain(v) ? 1 : v));
}

/**
 * The commands `work` sent to Bucket-scoped collections whose filter does not pin `bucket_id`, by
 * shape ("find objects {\"_id\":1}"), counted. A cluster sharded by Bucket sends such a command
 * to every shard; one that names its Bucket goes to one.
 */
export async function untargetedDuring(
  client: MongoClient,
  work: () => Promise<unknown>,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const seen = (sent: CommandStartedEvent) => {
    for (const e of singleCommands(sent)) {
      const coll: unknown = e.command[e.commandName];
      if (typeof coll !== 'string' || !SCOPED.has(coll)) continue;
      for (const filter of filtersOf(e)) {
        if (pinnedFields(filter).has('bucket_id')) continue;
        const key = `${e.commandName} ${coll} ${shape(filter)}`;
        found.set(key, (found.get(key) ?? 0) + 1);
      }
    }
  };
  client.on('commandStarted', seen);
  try {
    await work();
  } finally {
    client.off('commandStarted', seen);
  }
  return found;
}
