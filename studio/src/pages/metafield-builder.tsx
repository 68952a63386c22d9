import { KINDS, type Kind, type Metafield, type Option } from '../types';
import { useBucket } from '../bucket';

const REGEX_KINDS: Kind[] = [
  'text',
  'textarea',
  'html-textarea',
  'select-dropdown',
  'object',
  'file',
  'date',
  'radio-buttons',
  'markdown',
  'number',
];
const LENGTH_KINDS: Kind[] = ['text', 'textarea', 'html-textarea', 'markdown'];
const OPTION_KINDS: Kind[] = ['select-dropdown', 'radio-buttons', 'check-boxes'];

export function keyOf(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/** The definition without unset settings (and, for `blankIsUnset`, settings cleared to ""). */
function prune(mf: Metafield, blankIsUnset = false): Metafield {
  const kept = Object.entries(mf).filter(
    ([k, v]) => v !== undefined && !(blankIsUnset && v === '' && k !== 'value' && k !== 'title' && k !== 'key'),
  );
  return Object.fromEntries(kept) as unknown as Metafield;
}

/** A new Metafield of a kind, with the default value its definition requires. */
export function blank(type: Kind = 'text'): Metafield {
  return reshape({ type, title: '', key: '' }, type);
}

/** The definition after a change of kind: settings the new kind does not take are dropped. */
function reshape(mf: Metafield, type: Kind): Metafield {
  const { title, key, required, helptext, id } = mf;
  const next: Metafield = {
    type,
    title,
    key,
    ...(id ? { id } : {}),
    ...(required ? { required } : {}),
    ...(helptext ? { helptext } : {}),
  };
  if (REGEX_KINDS.includes(type) && mf.regex) Object.assign(next, { regex: mf.regex, regex_message: mf.regex_message });
  if (LENGTH_KINDS.includes(type)) Object.assign(next, { minlength: mf.minlength, maxlength: mf.maxlength });
  if (OPTION_KINDS.includes(type)) next.options = Array.isArray(mf.options) ? mf.options : [];
  if (type === 'switch') next.options = typeof mf.options === 'string' ? mf.options : 'true,false';
  if (type === 'object' || type === 'objects') next.object_type = mf.object_type ?? '';
  if (type === 'file' && mf.media_validation_type) next.media_validation_type = mf.media_validation_type;
  if (type === 'parent') next.children = mf.children ?? [];
  if (type === 'repeater') next.repeater_fields = mf.repeater_fields ?? [];
  if (mf.sortable) next.sortable = true;
  if (type !== 'parent' && type !== 'repeater')
    next.value =
      type === 'switch' ? false : type === 'json' ? null : type === 'objects' || type === 'check-boxes' ? [] : '';
  return prune(next);
}

function optionsText(options: Metafield['options']): string {
  return Array.isArray(options)
    ? options.map((o) => (o.key && o.key !== o.value ? `${o.key}: ${o.value}` : o.value)).join('\n')
    : '';
}

function parseOptions(text: string, keyed: boolean): Option[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.indexOf(':');
      if (at > 0) return { key: line.slice(0, at).trim(), value: line.slice(at + 1).trim() };
      return keyed ? { key: keyOf(line) || line, value: line } : { value: line };
    });
}

function intOrUndefined(s: string): number | undefined {
  return s === '' ? undefined : Math.max(0, Math.floor(Number(s)));
}

/** One Metafield's settings, every kind's own included; parents and repeaters nest a builder. */
function MetafieldEditor({
  mf,
  path,
  onChange,
  onRemove,
  onMove,
  first,
  last,
}: {
  mf: Metafield;
  path: string;
  onChange: (mf: Metafield) => void;
  onRemove: () => void;
  onMove: (by: number) => void;
  first: boolean;
  last: boolean;
}) {
  const bucket = useBucket();
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
        <label>
          Title
          <input
            type="text"
            value={mf.title}
            required
            onInput={(e) => {
              const title = e.currentTarget.value;
              // The key follows the title until it is edited by hand.
              set({ title, key: mf.key === '' || mf.key === keyOf(mf.title) ? keyOf(title) : mf.key });
            }}
          />
        </label>
        <label>
          Key
          <input
            type="text"
            value={mf.key}
            required
            pattern="[A-Za-z0-9_\-]+"
            onInput={(e) => {
              set({ key: e.currentTarget.value });
            }}
          />
        </label>
        <label>
          Help text
          <input
            type="text"
            value={mf.helptext ?? ''}
            onInput={(e) => {
              set({ helptext: e.currentTarget.value });
            }}
          />
        </label>
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
      {REGEX_KINDS.includes(mf.type) ? (
        <div class="grid">
          <label>
            Regex
            <input
              type="text"
              value={mf.regex ?? ''}
              onInput={(e) => {
                set({ regex: e.currentTarget.value });
              }}
            />
          </label>
          <label>
            Regex message
            <input
              type="text"
              value={mf.regex_message ?? ''}
              onInput={(e) => {
                set({ regex_message: e.currentTarget.value });
              }}
            />
          </label>
        </div>
      ) : null}
      {LENGTH_KINDS.includes(mf.type) ? (
        <div class="grid">
          <label>
            Minimum length
            <input
              type="number"
              min={0}
              value={mf.minlength ?? ''}
              onInput={(e) => {
                set({ minlength: intOrUndefined(e.currentTarget.value) });
              }}
            />
          </label>
          <label>
            Maximum length
            <input
              type="number"
              min={0}
              value={mf.maxlength ?? ''}
              onInput={(e) => {
                set({ maxlength: intOrUndefined(e.currentTarget.value) });
              }}
            />
          </label>
        </div>
      ) : null}
      {OPTION_KINDS.includes(mf.type) ? (
        <label>
          Options (one a line, “key: value” or just the value)
          <textarea
            rows={3}
            value={optionsText(mf.options)}
            onInput={(e) => {
              onChange({ ...mf, options: parseOptions(e.currentTarget.value, mf.type === 'select-dropdown') });
            }}
          />
        </label>
      ) : null}
      {mf.type === 'switch' ? (
        <label>
          Switch labels
          <select
            value={typeof mf.options === 'string' ? mf.options : 'true,false'}
            onChange={(e) => {
              set({ options: e.currentTarget.value });
            }}
          >
            <option value="true,false">true / false</option>
            <option value="yes,no">yes / no</option>
          </select>
        </label>
      ) : null}
      {mf.type === 'object' || mf.type === 'objects' ? (
        <label>
          Related Object type
          <select
            value={mf.object_type ?? ''}
            onChange={(e) => {
              onChange({ ...mf, object_type: e.currentTarget.value });
            }}
          >
            <option value="">(choose)</option>
            {bucket.types.map((t) => (
              <option key={t.slug} value={t.slug}>
                {t.title}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {mf.type === 'file' ? (
        <label>
          Media type
          <select
            value={mf.media_validation_type ?? ''}
            onChange={(e) => {
              set({
                media_validation_type: (e.currentTarget.value || undefined) as Metafield['media_validation_type'],
              });
            }}
          >
            <option value="">any</option>
            {['image', 'video', 'audio', 'application', 'text'].map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      ) : null}
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
  path = '',
  label,
}: {
  list: Metafield[];
  onChange: (list: Metafield[]) => void;
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
