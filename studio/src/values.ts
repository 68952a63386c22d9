import type { Metafield, Option } from './types';

// Metafield values as the editor holds them, and their conversion from a read and to a write.
// Reads answer richer shapes than writes take: a select-dropdown as {key, value} (written as the
// key), a file as {url, imgproc_url} (written as the media name, the URL's last segment).

export type Values = Record<string, unknown>;

export function optionsOf(mf: Metafield): Option[] {
  return Array.isArray(mf.options) ? mf.options : [];
}

export function optionKey(o: Option): string {
  return o.key ?? o.value;
}

export function mediaNameOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'url' in value && typeof value.url === 'string') {
    return decodeURIComponent(value.url.split('?')[0]?.split('/').pop() ?? '');
  }
  return '';
}

function fromObject(value: unknown): Values {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Values) : {};
}

/** A read value in the editor's form. */
export function toEdit(mf: Metafield, value: unknown): unknown {
  switch (mf.type) {
    case 'select-dropdown':
      if (value && typeof value === 'object' && 'key' in value) return String(value.key);
      return typeof value === 'string' ? value : '';
    case 'file':
      return mediaNameOf(value);
    case 'object':
      return typeof value === 'string' ? value : value && typeof value === 'object' && 'id' in value ? value.id : '';
    case 'objects':
      return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : (v as { id: string }).id)) : [];
    case 'check-boxes':
      return Array.isArray(value) ? value : [];
    case 'switch':
      return value === true;
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    case 'json':
      return value === undefined || value === null ? '' : JSON.stringify(value, null, 2);
    case 'parent':
      return editValues(mf.children ?? [], fromObject(value));
    case 'repeater':
      return Array.isArray(value) ? value.map((item) => editValues(mf.repeater_fields ?? [], fromObject(item))) : [];
    default:
      return typeof value === 'string' ? value : '';
  }
}

export function editValues(metafields: Metafield[], metadata: Values): Values {
  return Object.fromEntries(metafields.map((mf) => [mf.key, toEdit(mf, metadata[mf.key] ?? mf.value)]));
}

export class JsonProblem extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

/** The editor's value as the API takes it; "" stands for "no value" on every kind but json. */
export function toWrite(mf: Metafield, value: unknown, path = mf.key): unknown {
  switch (mf.type) {
    case 'number':
      return value === '' ? null : Number(value);
    case 'json': {
      const text = typeof value === 'string' ? value.trim() : '';
      if (text === '') return null;
      try {
        return JSON.parse(text) as unknown;
      } catch (err) {
        throw new JsonProblem(path, `${mf.title}: not valid JSON (${(err as Error).message})`);
      }
    }
    case 'select-dropdown':
    case 'file':
    case 'object':
    case 'date':
      return value === '' ? null : value;
    case 'parent':
      return writeValues(mf.children ?? [], fromObject(value), `${path}.`);
    case 'repeater':
      return Array.isArray(value)
        ? value.map((item, i) => writeValues(mf.repeater_fields ?? [], fromObject(item), `${path}[${i}].`))
        : [];
    default:
      return value;
  }
}

export function writeValues(metafields: Metafield[], values: Values, prefix = ''): Values {
  return Object.fromEntries(metafields.map((mf) => [mf.key, toWrite(mf, values[mf.key], prefix + mf.key)]));
}

/**
 * Which top-level Metafield each problem of an API message names: the API words them as
 * `invalid value for key "seo.title" …` or `… key "price" …`; the rest stay general.
 */
export function problemsByKey(message: string, keys: string[]): { byKey: Record<string, string>; general: string[] } {
  const byKey: Record<string, string> = {};
  const general: string[] = [];
  const colon = message.indexOf(': ');
  const parts = colon > 0 ? message.slice(colon + 2).split('; ') : [message];
  for (const part of parts) {
    const named = /key "([^"]+)"/.exec(part)?.[1] ?? /metadata\.([A-Za-z0-9_-]+)/.exec(part)?.[1];
    const top = named?.split(/[.[]/)[0];
    if (top !== undefined && keys.includes(top)) byKey[top] = byKey[top] ? `${byKey[top]}; ${part}` : part;
    else if (/\btitle\b/.test(part) && !named) byKey.__title = part;
    else general.push(part);
  }
  return { byKey, general };
}
