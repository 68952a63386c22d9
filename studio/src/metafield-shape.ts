import type { Kind, Metafield, Option } from './types';

// Metafield definitions as the builder edits them: which settings each kind takes, and the
// default value the API requires of each kind.

export const REGEX_KINDS: Kind[] = [
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
export const LENGTH_KINDS: Kind[] = ['text', 'textarea', 'html-textarea', 'markdown'];
export const OPTION_KINDS: Kind[] = ['select-dropdown', 'radio-buttons', 'check-boxes'];

export function keyOf(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

/**
 * Marks a Metafield added in this editor and not saved yet: only its key may still follow its
 * title or be typed. A saved Metafield's key names its values on every Object, so it changes only
 * by an explicit rename. A symbol, so the JSON body sent to the API never carries it; spreads keep it.
 */
const UNSAVED = Symbol('unsaved');
type Marked = Metafield & { [UNSAVED]?: true };

export function isUnsaved(mf: Metafield): boolean {
  return (mf as Marked)[UNSAVED] === true;
}

/** `to`, marked unsaved when `from` is. */
function carryMark(from: Metafield, to: Metafield): Metafield {
  if (isUnsaved(from)) (to as Marked)[UNSAVED] = true;
  return to;
}

/** The definition without unset settings (and, for `blankIsUnset`, settings cleared to ""). */
export function prune(mf: Metafield, blankIsUnset = false): Metafield {
  const kept = Object.entries(mf).filter(
    ([k, v]) => v !== undefined && !(blankIsUnset && v === '' && k !== 'value' && k !== 'title' && k !== 'key'),
  );
  return carryMark(mf, Object.fromEntries(kept) as unknown as Metafield);
}

/** A new Metafield of a kind, with the default value its definition requires. */
export function blank(type: Kind = 'text'): Metafield {
  const fresh: Marked = { type, title: '', key: '', [UNSAVED]: true };
  return reshape(fresh, type);
}

/** The key a title edit leaves: a new Metafield's key follows its title until typed by hand; a saved one's never moves. */
export function keyAfterRetitle(mf: Metafield, title: string): string {
  if (!isUnsaved(mf)) return mf.key;
  return mf.key === '' || mf.key === keyOf(mf.title) ? keyOf(title) : mf.key;
}

/** The definition after a change of kind: settings the new kind does not take are dropped. */
export function reshape(mf: Metafield, type: Kind): Metafield {
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
  return carryMark(mf, prune(next));
}

export function optionsText(options: Metafield['options']): string {
  return Array.isArray(options)
    ? options.map((o) => (o.key && o.key !== o.value ? `${o.key}: ${o.value}` : o.value)).join('\n')
    : '';
}

export function parseOptions(text: string, keyed: boolean): Option[] {
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

export function intOrUndefined(s: string): number | undefined {
  return s === '' ? undefined : Math.max(0, Math.floor(Number(s)));
}
