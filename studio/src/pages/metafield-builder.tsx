import { blank, isUnsaved, keyAfterRetitle, prune, reshape } from '../metafield-shape';
import { KINDS, type Kind, type Metafield } from '../types';
import { KindSettings } from './metafield-settings';
import { TextInput } from '../ui';

/** One Metafield's settings, every kind's own included; parents and repeaters nest a builder. */
function MetafieldEditor({
  mf,
  path,
  onChange,
  onRemove,
  onMove,
  onRenameKey,
  first,
  last,
}: {
  mf: Metafield;
  path: string;
  onChange: (mf: Metafield) => void;
  onRemove: () => void;
  onMove: (by: number) => void;
  /** Top-level only: opens the explicit rename of a saved key, which moves every Object's value. */
  onRenameKey: (() => void) | undefined;
  first: boolean;
  last: boolean;
}) {
  const set = (patch: Partial<Metafield>) => {
    onChange(prune({ ...mf, ...patch }, true));
  };
  return (
    <fieldset class="metafield">
      <legend>Metafield {path}</legend>
      <div class="grid">
        <label>
          Kind
          <select
            value={mf.type}
            onChange={(e) => {
              onChange(reshape(mf, e.currentTarget.value as Kind));
            }}
          >
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <TextInput
          label="Title"
          value={mf.title}
          required
          onValue={(title) => {
            // Retitling a saved Metafield never moves its key: the key names its values on every Object.
            set({ title, key: keyAfterRetitle(mf, title) });
          }}
        />
        {isUnsaved(mf) ? (
          <TextInput
            label="Key"
            value={mf.key}
            required
            pattern="[A-Za-z0-9_\-]+"
            onValue={(key) => {
              set({ key });
            }}
          />
        ) : (
          <div class="saved-key">
            <label>
              Key
              <input type="text" value={mf.key} readOnly aria-describedby={`key-note-${path}`} />
            </label>
            <span class="hint" id={`key-note-${path}`}>
              {onRenameKey ? 'Saved: renaming moves every value' : 'Saved: fixed'}
            </span>
            {onRenameKey ? (
              <button type="button" onClick={onRenameKey} aria-label={`Rename key of Metafield ${path}`}>
                Rename key
              </button>
            ) : null}
          </div>
        )}
        <TextInput
          label="Help text"
          value={mf.helptext ?? ''}
          onValue={(helptext) => {
            set({ helptext });
          }}
        />
      </div>
      <div class="checks">
        <label class="choice">
          <input
            type="checkbox"
            checked={mf.required === true}
            onChange={(e) => {
              set({ required: e.currentTarget.checked || undefined });
            }}
          />
          Required
        </label>
        <label class="choice">
          <input
            type="checkbox"
            checked={mf.sortable === true}
            onChange={(e) => {
              set({ sortable: e.currentTarget.checked || undefined });
            }}
          />
          Sortable
        </label>
      </div>
      <KindSettings mf={mf} set={set} onChange={onChange} />
      {mf.type === 'parent' ? (
        <MetafieldList
          label={`Children of ${mf.title || path}`}
          path={path}
          list={mf.children ?? []}
          onChange={(children) => {
            onChange({ ...mf, children });
          }}
        />
      ) : null}
      {mf.type === 'repeater' ? (
        <MetafieldList
          label={`Fields of ${mf.title || path}`}
          path={path}
          list={mf.repeater_fields ?? []}
          onChange={(repeater_fields) => {
            onChange({ ...mf, repeater_fields });
          }}
        />
      ) : null}
      <div class="row-actions">
        <button
          type="button"
          disabled={first}
          onClick={() => {
            onMove(-1);
          }}
          aria-label={`Move Metafield ${path} up`}
        >
          Move up
        </button>
        <button
          type="button"
          disabled={last}
          onClick={() => {
            onMove(1);
          }}
          aria-label={`Move Metafield ${path} down`}
        >
          Move down
        </button>
        <button type="button" class="danger" onClick={onRemove} aria-label={`Remove Metafield ${path}`}>
          Remove
        </button>
      </div>
    </fieldset>
  );
}

/** A list of Metafields with add, remove and reorder. */
export function MetafieldList({
  list,
  onChange,
  onRenameKey,
  path = '',
  label,
}: {
  list: Metafield[];
  onChange: (list: Metafield[]) => void;
  /** Given for the type's own (top-level) list: the rename of the saved key at index `i`. */
  onRenameKey?: (i: number) => void;
  path?: string;
  label: string;
}) {
  const at = (i: number) => (path ? `${path}.${i + 1}` : String(i + 1));
  const move = (i: number, by: number) => {
    const next = [...list];
    const [item] = next.splice(i, 1);
    if (item) next.splice(i + by, 0, item);
    onChange(next);
  };
  return (
    <div class="metafields" role="group" aria-label={label}>
      {list.map((mf, i) => (
        <MetafieldEditor
          key={i}
          mf={mf}
          path={at(i)}
          first={i === 0}
          last={i === list.length - 1}
          onChange={(m) => {
            onChange(list.map((x, j) => (j === i ? m : x)));
          }}
          onRemove={() => {
            onChange(list.filter((_, j) => j !== i));
          }}
          onMove={(by) => {
            move(i, by);
          }}
          onRenameKey={
            onRenameKey &&
            (() => {
              onRenameKey(i);
            })
          }
        />
      ))}
      <button
        type="button"
        onClick={() => {
          onChange([...list, blank()]);
        }}
      >
        Add Metafield{path ? ` to ${path}` : ''}
      </button>
    </div>
  );
}
