import type { CommandStartedEvent, Db, Document } from 'mongodb';
import { assumeBulkWrite } from '../../lib/db/service-db.js';

/** A command as the tests read it: its name and body, as command monitoring reports one. */
export type SentCommand = Pick<CommandStartedEvent, 'commandName' | 'command'>;

/**
 * The commands `e` stands for: a bulkWrite (MongoDB 8.0: one command, several collections) as
 * the insert, update and delete commands its ops would be if each were sent alone, so checks of
 * what reaches a collection see them; any other command as itself.
 */
export function singleCommands(e: SentCommand): SentCommand[] {
  if (e.commandName !== 'bulkWrite') return [e];
  const nsInfo = (e.command.nsInfo ?? []) as { ns: string }[];
  const collection = (index: unknown) => {
    const ns = nsInfo[Number(index)]?.ns ?? '';
    return ns.slice(ns.indexOf('.') + 1);
  };
  return ((e.command.ops ?? []) as Document[]).map((op): SentCommand => {
    if ('insert' in op)
      return { commandName: 'insert', command: { insert: collection(op.insert), documents: [op.document] } };
    if ('update' in op) {
      const update = { q: op.filter as Document, u: op.updateMods as Document, upsert: op.upsert === true };
      return { commandName: 'update', command: { update: collection(op.update), updates: [update] } };
    }
    return {
      commandName: 'delete',
      command: { delete: collection(op.delete), deletes: [{ q: op.filter as Document }] },
    };
  });
}

/** "commandName collection" of a command; a bulkWrite's as "bulkWrite [insert revisions, …]", in its order. */
export function commandLabel(e: SentCommand): string {
  const label = (c: SentCommand) => `${c.commandName} ${String(c.command[c.commandName])}`;
  if (e.commandName !== 'bulkWrite') return label(e);
  return `bulkWrite [${singleCommands(e).map(label).join(', ')}]`;
}

/**
 * Hooks making the enclosing describe block's tests run as on a server without bulkWrite (before
 * MongoDB 8.0), for the app whose handle `db` gives (a harness's `db`) and apps made over it.
 */
export function withoutBulkWrite(db: () => Db): void {
  before(() => {
    assumeBulkWrite(db(), false);
  });
  after(() => {
    assumeBulkWrite(db(), undefined);
  });
}
