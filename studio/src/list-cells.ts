import type { Metafield } from './types';

/** A related Object as a cell shows it: its title when the read expanded it (depth 1), else its id. */
function relatedText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const o = value as { title?: unknown; id?: unknown };
    if (typeof o.title === 'string') return o.title;
    if (typeof o.id === 'string') return o.id;
  }
  return '';
}

/** A Metafield's read value as one line of a table cell (empty values as ""). */
export function cellText(mf: Metafield, value: unknown): string {
  switch (mf.type) {
    case 'select-dropdown':
      return value && typeof value === 'object' && 'value' in value ? String(value.value) : '';
    case 'switch':
      return value === true ? 'Yes' : 'No';
    case 'number':
      return typeof value === 'number' ? value.toLocaleString() : '';
    case 'object':
      return relatedText(value);
    case 'objects':
    case 'check-boxes':
      return Array.isArray(value) ? value.map(relatedText).filter(Boolean).join(', ') : '';
    default:
      return typeof value === 'string' ? value : '';
  }
}
