import { Modal } from '../modal';
import type { Metafield } from '../types';

/** What a 412 `version_conflict` names: the version in place, who wrote it and when. */
export interface CurrentVersion {
  version: string;
  modified_at: string;
  modified_by: string | null;
}

/** One field of a save body, by the label an editor knows it by. */
export interface FieldOf {
  label: string;
  value: (body: Record<string, unknown>) => unknown;
}

/** The fields an Object's save body holds, in the form's order. */
export function bodyFields(metafields: Metafield[], extra: { slug: boolean; content: boolean }): FieldOf[] {
  const fields: FieldOf[] = [{ label: 'Title', value: (b) => b.title }];
  if (extra.slug) fields.push({ label: 'Slug', value: (b) => b.slug });
  if (extra.content) fields.push({ label: 'Content', value: (b) => b.content });
  for (const mf of metafields) {
    fields.push({ label: mf.title, value: (b) => (b.metadata as Record<string, unknown> | undefined)?.[mf.key] });
  }
  return fields;
}

/** A value as a person reads it: rich text as its text, lists and structures as compact JSON. */
export function readable(value: unknown): string {
  if (value === undefined || value === null || value === '') return '(empty)';
  if (typeof value === 'string') {
    if (!/<[a-z][\s\S]*>/i.test(value)) return value;
    return new DOMParser().parseFromString(value, 'text/html').body.textContent;
  }
  return JSON.stringify(value);
}

interface ConflictProps {
  fields: FieldOf[];
  mine: Record<string, unknown>;
  theirs: Record<string, unknown>;
  current: CurrentVersion;
  /** Their version replaces what was typed here. */
  onReload: () => void;
  /** What was typed here is saved over their version. */
  onOverwrite: () => void;
  /** Escape: decide later; nothing is saved meanwhile. */
  onDismiss: () => void;
}

/** A save that would have overwritten someone else's: both versions, field by field, and the choice. */
export function EditConflict({ fields, mine, theirs, current, onReload, onOverwrite, onDismiss }: ConflictProps) {
  const differing = fields.filter((f) => readable(f.value(mine)) !== readable(f.value(theirs)));
  const who = current.modified_by === null ? 'someone using the Bucket key' : `user ${current.modified_by}`;
  return (
    <Modal title="Edit conflict" role="alertdialog" onDismiss={onDismiss} class="conflict">
      <p>
        This Object was saved by {who} at {new Date(current.modified_at).toLocaleString()}, after you opened it. Your
        changes are not saved yet. Choose which version to keep.
      </p>
      {differing.length === 0 ? (
        <p>Both versions hold the same values.</p>
      ) : (
        <table class="conflict-table">
          <caption>Fields that differ ({differing.length})</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Their version</th>
              <th scope="col">Your version</th>
            </tr>
          </thead>
          <tbody>
            {differing.map((f) => (
              <tr key={f.label}>
                <th scope="row">{f.label}</th>
                <td>{readable(f.value(theirs))}</td>
                <td>{readable(f.value(mine))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="form-actions">
        <button type="button" onClick={onReload}>
          Reload their version
        </button>
        <button type="button" class="primary" onClick={onOverwrite}>
          Overwrite with mine
        </button>
      </div>
    </Modal>
  );
}
