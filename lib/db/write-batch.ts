import {
  MongoBulkWriteError,
  type AnyBulkWriteOperation,
  MongoServerError,
  type Collection,
  type Db,
  type Document,
  type OneOrMore,
  type WriteError,
} from 'mongodb';
import { DUPLICATE_KEY, isDuplicateKey } from '../errors/mongo-errors.js';
import { bulkWriteCommand, type Stored, type WriteModel } from './plain-commands.js';
import { hasBulkWrite, lacksBulkWrite } from './service-db.js';

export type { WriteModel } from './plain-commands.js';

/** One write of a batch: what to do, and to which collection. */
export interface BatchWrite {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any collection's documents
  to: Collection<any>;
  model: WriteModel;
  /** A duplicate key error means the write was done before (by a repair, or a racing write): not a failure. */
  doneIfDuplicate?: boolean;
  /**
   * An upsert whose duplicate key error means a racing upsert inserted the document first: sent
   * again once, it then updates it. (MongoDB retries such an upsert itself; not every engine does.)
   */
  retryIfDuplicate?: boolean;
  /**
   * Sent only where the batch goes as one ordered command, or only where it goes one command at a
   * time: for writes whose worth depends on the order the server applies them in.
   */
  only?: 'in-one-command' | 'apart';
}

/** How `last` went: sent in the same command (with its matched count), or left to the caller to send. */
export type LastWrite = { sent: true; matched: number } | { sent: false; send: () => Promise<number> };

/** The last write's matched count, once sent: now, if it was left to the caller. */
export async function lastSent(last: LastWrite): Promise<number> {
  return last.sent ? last.matched : last.send();
}

/** The server's code for a command it does not know. */
const COMMAND_NOT_FOUND = 59;

/**
 * Sends `steps` in turn (the writes of one step do not depend on each other), then `last`, which
 * must happen only once all of them did (a clear of work owed, say). Where the servers have
 * bulkWrite that is one ordered command: the server applies the writes in turn and stops at the
 * first that fails, so no write is applied before those of earlier steps, nor `last` without them.
 * Elsewhere each step's writes go at once, one command each, step after step, and `last` is left
 * for the caller to send (it may put it off). A duplicate key error of a `doneIfDuplicate` write
 * counts as done in both.
 */
export async function writeInSteps(
  db: Db,
  steps: readonly (readonly BatchWrite[])[],
  last: BatchWrite,
): Promise<LastWrite> {
  const matched = await inOneCommandIfKnown(db, [...steps.flat(), last]);
  if (matched !== undefined) return { sent: true, matched };
  for (const step of steps) await sendApart(step);
  return { sent: false, send: () => writeAlone(last) };
}

/**
 * One step's writes where the servers have no bulkWrite across collections: one unordered
 * bulkWrite per collection (a page of a type delete is then a few commands, not one per Object),
 * at once. Writes only meant for one ordered command are left out; a duplicate key error is
 * handled per write as `writeAlone` handles it.
 */
export async function sendApart(step: readonly BatchWrite[]): Promise<void> {
  const byCollection = new Map<string, BatchWrite[]>();
  for (const write of step) {
    if (write.only === 'in-one-command') continue;
    const group = byCollection.get(write.to.namespace);
    if (group) group.push(write);
    else byCollection.set(write.to.namespace, [write]);
  }
  await Promise.all([...byCollection.values()].map((group) => sendGroup(group)));
}

/** Writes to one collection as one unordered bulkWrite; those that failed on a duplicate key settle as alone. */
async function sendGroup(group: readonly BatchWrite[]): Promise<void> {
  const [first, ...others] = group;
  if (!first) return;
  if (others.length === 0) {
    await writeAlone(first);
    return;
  }
  try {
    await first.to.bulkWrite(group.map(collectionModel), { ordered: false });
  } catch (err) {
    if (!(err instanceof MongoBulkWriteError)) throw err;
    const errors: OneOrMore<WriteError> = err.writeErrors;
    const failed = errors instanceof Array ? errors : [errors];
    if (failed.length === 0) throw err;
    for (const { index, code } of failed) {
      const write = group.at(index);
      if (!write || code !== DUPLICATE_KEY) throw err;
      if (write.retryIfDuplicate) await writeAlone({ ...write, retryIfDuplicate: false });
      else if (!write.doneIfDuplicate) throw err;
    }
  }
}

/** A batch write as the collection's bulkWrite takes it. */
function collectionModel({ model }: BatchWrite): AnyBulkWriteOperation<Stored> {
  switch (model.name) {
    case 'insertOne':
      return { insertOne: { document: model.document } };
    case 'updateOne':
      return { updateOne: { filter: model.filter, update: model.update, upsert: model.upsert ?? false } };
    case 'replaceOne':
      return { replaceOne: { filter: model.filter, replacement: model.replacement, upsert: model.upsert ?? false } };
    case 'deleteOne':
      return { deleteOne: { filter: model.filter } };
    case 'deleteMany':
      return { deleteMany: { filter: model.filter } };
  }
}

/**
 * A commit point as one write that fails, writing nothing, where `filter` finds no document: an
 * upsert whose insert is refused because it would give the document an array for `_id`. (MongoDB
 * refuses it as a change of the immutable `_id` or as an array `_id`; the embedded engine as the
 * latter.) Unlike a conditional update that matches nothing, the failure stops an ordered batch,
 * so the writes after it in the same command happen only if it did.
 */
export function writeIfFound(
  to: BatchWrite['to'],
  filter: Document,
  update: { $set: Document; $unset?: Document },
): BatchWrite {
  return { to, model: { name: 'updateOne', filter, update: { ...update, $setOnInsert: REFUSED }, upsert: true } };
}

const REFUSED: Document = { _id: [] };

/**
 * A check that changes nothing where `filter` finds a document and fails like `writeIfFound`
 * where it finds none: put first in a batch, the rest applies only while the document is as the
 * filter says (a Bucket as a request took it from memory, say).
 */
export function foundOrStop(to: BatchWrite['to'], filter: Document): BatchWrite {
  return { to, model: { name: 'updateOne', filter, update: { $setOnInsert: REFUSED }, upsert: true } };
}

/** A `foundOrStop` check of `commitInSteps` found nothing: nothing was written. */
export class PreconditionFailed extends Error {
  constructor() {
    super('a precondition of the write no longer held: nothing was written');
  }
}

/** Server codes of `writeIfFound`'s refused insert. */
const NOT_FOUND_CODES = new Set([
  53, // InvalidIdField
  66, // ImmutableField
]);

function missed(err: unknown): boolean {
  return err instanceof MongoServerError && typeof err.code === 'number' && NOT_FOUND_CODES.has(err.code);
}

/** The commit of `commitInSteps` failed (a unique key taken, say): it wrote nothing, and neither did the rest. */
export class CommitFailed extends Error {
  constructor(readonly failure: unknown) {
    super(failure instanceof Error ? failure.message : String(failure));
  }
}

/**
 * How a batch led by a commit went: its commit found nothing and nothing was written, or it
 * wrote, and `last` went as `writeInSteps` says.
 */
export type CommitOutcome = { committed: false } | { committed: true; last: LastWrite };

/** Options of `commitInSteps`. */
export interface CommitOptions {
  /** Runs after the commit and before the rest, which then go in commands of their own. */
  between?: (() => Promise<void>) | undefined;
  /** Called once the commit is known to have happened, even if a write after it then fails. */
  committed?: (() => void) | undefined;
  /** A `foundOrStop` check sent before the commit: where it finds nothing, nothing is written (PreconditionFailed). */
  precondition?: BatchWrite | undefined;
}

/**
 * `commit` (an insert, or a `writeIfFound`), then `steps` and `last` as `writeInSteps` sends
 * them. Where the servers have bulkWrite, all of it is one ordered command, led by the
 * precondition if there is one: the server applies nothing after a check or commit that failed or
 * found nothing. Elsewhere, or when `between` must run after the commit and before the rest, the
 * precondition and the commit are commands of their own.
 */
export async function commitInSteps(
  db: Db,
  commit: BatchWrite,
  steps: readonly (readonly BatchWrite[])[],
  last: BatchWrite,
  { between, committed, precondition }: CommitOptions = {},
): Promise<CommitOutcome> {
  // Where the commit sits in a batch: a failure past it comes after the commit happened.
  const commitAt = precondition ? 1 : 0;
  try {
    if (!between) {
      const lead = precondition ? [precondition, commit] : [commit];
      const matched = await inOneCommandIfKnown(db, [...lead, ...steps.flat(), last]);
      if (matched !== undefined) {
        committed?.();
        return { committed: true, last: { sent: true, matched } };
      }
    }
    if (precondition) await checkAlone(precondition);
    await writeAlone(commit);
  } catch (err) {
    if (err instanceof PreconditionFailed) throw err;
    if (err instanceof BatchWriteError && err.index > commitAt) {
      committed?.();
      throw err;
    }
    if (err instanceof BatchWriteError && err.index < commitAt) throw missed(err) ? new PreconditionFailed() : err;
    if (missed(err)) return { committed: false };
    throw new CommitFailed(err);
  }
  committed?.();
  if (between) await between();
  return { committed: true, last: await writeInSteps(db, steps, last) };
}

/** Sends a `foundOrStop` check alone; PreconditionFailed where it finds nothing. */
export async function checkAlone(check: BatchWrite): Promise<void> {
  try {
    await writeAlone(check);
  } catch (err) {
    throw missed(err) ? new PreconditionFailed() : err;
  }
}

/**
 * `batch` (less its writes only sent apart) as one ordered bulkWrite, where the servers have the
 * command; the last write's matched count, or undefined where they have not.
 */
async function inOneCommandIfKnown(db: Db, batch: readonly BatchWrite[]): Promise<number | undefined> {
  if (!(await hasBulkWrite(db))) return undefined;
  try {
    return await inOneCommand(
      db,
      batch.filter((w) => w.only !== 'apart'),
    );
  } catch (err) {
    // A server that said it has the command but has not (a proxy, a mixed-version cluster).
    if (!(err instanceof MongoServerError && err.code === COMMAND_NOT_FOUND)) throw err;
    lacksBulkWrite(db);
    return undefined;
  }
}

/** A write of an ordered bulkWrite failed: as the same write alone would have, and which one it was. */
class BatchWriteError extends MongoServerError {
  constructor(
    message: string,
    code: number,
    /** Its place in the batch as given. */
    readonly index: number,
  ) {
    super({ message, errmsg: message, code });
  }
}

/** One ordered bulkWrite of `batch`, resumed after a write that was done before; the last write's matched count. */
async function inOneCommand(db: Db, batch: readonly BatchWrite[]): Promise<number> {
  let from = 0;
  const retried = new Set<number>();
  for (;;) {
    const rest = batch.slice(from);
    const { failed, lastMatched } = await bulkWriteCommand(
      db,
      rest.map((w) => ({ namespace: w.to.namespace, model: w.model })),
    );
    if (!failed) return lastMatched;
    // An ordered batch stops at its one failed write.
    const { index, code, message } = failed;
    if (code === DUPLICATE_KEY && rest[index]?.retryIfDuplicate && !retried.has(from + index)) {
      retried.add(from + index);
      from += index;
      continue;
    }
    if (code !== DUPLICATE_KEY || !rest[index]?.doneIfDuplicate || index === rest.length - 1) {
      // As the same write alone would have failed, so callers tell errors apart as they always do.
      throw new BatchWriteError(message, code, from + index);
    }
    from += index + 1;
  }
}

/** One write in a command of its own; its matched (or deleted) count. */
export async function writeAlone(write: BatchWrite): Promise<number> {
  try {
    return await writeOnce(write);
  } catch (err) {
    if (write.retryIfDuplicate && isDuplicateKey(err)) return writeAlone({ ...write, retryIfDuplicate: false });
    throw err;
  }
}

async function writeOnce({ to, model, doneIfDuplicate }: BatchWrite): Promise<number> {
  try {
    switch (model.name) {
      case 'insertOne':
        await to.insertOne(model.document);
        return 1;
      case 'updateOne':
        return (await to.updateOne(model.filter, model.update, { upsert: model.upsert ?? false })).matchedCount;
      case 'replaceOne':
        return (await to.replaceOne(model.filter, model.replacement, { upsert: model.upsert ?? false })).matchedCount;
      case 'deleteOne':
        return (await to.deleteOne(model.filter)).deletedCount;
      case 'deleteMany':
        return (await to.deleteMany(model.filter)).deletedCount;
    }
  } catch (err) {
    if (doneIfDuplicate && isDuplicateKey(err)) return 1;
    throw err;
  }
}
