import { MigrationError } from '../errors/domain-errors.js';
import type { ObjectRecord, RevisionRecord } from './bundle-format.js';
import type { BundleReader } from './bundle-reader.js';
import type { BundleIndex } from './import-index.js';
import { checkRecord } from './record-schemas.js';

export interface Located<R> {
  record: R;
  where: string;
}

/** An Object record with its revisions from revisions.ndjson. */
export interface ObjectWithHistory extends Located<ObjectRecord> {
  revisions: Located<RevisionRecord>[];
}

/**
 * The Objects of a bundle, each with its revisions, read side by side from both sections (which
 * share their order), so only one Object's history is in memory at a time. Revisions of an Object
 * the bundle does not hold (created while the export ran) are skipped with a warning.
 */
export async function* objectsWithHistory(
  reader: BundleReader,
  index: BundleIndex,
  warn: (message: string) => void,
): AsyncGenerator<ObjectWithHistory> {
  const revisions = reader.records('revisions');
  let pending: Located<RevisionRecord> | null = null;
  let exhausted = false;
  const next = async (): Promise<Located<RevisionRecord> | null> => {
    if (exhausted) return null;
    const item = await revisions.next();
    if (item.done) {
      exhausted = true;
      return null;
    }
    return { record: checkRecord('revision', item.value.value, item.value.where), where: item.value.where };
  };
  try {
    for await (const { value, where, line } of reader.records('objects')) {
      const record = checkRecord('object', value, where);
      const own: Located<RevisionRecord>[] = [];
      for (;;) {
        pending ??= await next();
        if (!pending) break;
        const owner = index.objects.get(pending.record.object);
        if (!owner) {
          warn(`${pending.where}: skipped, its Object "${pending.record.object}" is not in the bundle`);
          pending = null;
          continue;
        }
        if (owner.line > line) break;
        if (owner.line < line)
          throw new MigrationError(`${pending.where}: revisions.ndjson is not in the order of objects.ndjson`);
        own.push(pending);
        pending = null;
      }
      yield { record, where, revisions: own };
    }
  } finally {
    await revisions.return(undefined);
  }
}
