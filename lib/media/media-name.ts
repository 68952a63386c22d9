import { randomBytes } from 'node:crypto';
import { slugify } from '../objects/write/slugs.js';
import { extensionForType, extensionOf } from './sniff-type.js';

const MAX_BASE_LENGTH = 60;
const SAFE_EXTENSION = /^[a-z0-9]{1,10}$/;

/**
 * The stored name of an upload: `<16 hex>-<slugified base>.<ext>`. The random prefix makes it
 * unique without a lookup and unguessable from the original name; the rest keeps it readable.
 * Only [a-z0-9.-] remain, so the name is safe in URLs, headers and file systems.
 */
export function deriveMediaName(
  originalName: string,
  type: string,
  random: string = randomBytes(8).toString('hex'),
): string {
  const fileName = originalName.split(/[\\/]/).pop() ?? '';
  const ownExt = extensionOf(fileName);
  const ext = SAFE_EXTENSION.test(ownExt) ? ownExt : (extensionForType(type) ?? '');
  const base = ownExt ? fileName.slice(0, fileName.length - ownExt.length - 1) : fileName;
  const slug = slugify(base, 'file').slice(0, MAX_BASE_LENGTH).replace(/-+$/, '') || 'file';
  return ext ? `${random}-${slug}.${ext}` : `${random}-${slug}`;
}

/** C0 controls and DEL; compared by code, as a regex range of them reads like a stray control character. */
function isControlChar(char: string): boolean {
  const code = char.charCodeAt(0);
  return code <= 0x1f || code === 0x7f;
}

/** What a client sent as the file name, trimmed to something storable (names are shown, not trusted). */
export function cleanOriginalName(name: string | undefined): string {
  // Control characters would corrupt headers and logs; the length bound keeps records small.
  const cleaned = Array.from(name ?? '')
    .filter((char) => !isControlChar(char))
    .join('')
    .trim()
    .slice(0, 255);
  return cleaned || 'file';
}

/**
 * Problems with a display name a client sets on purpose (a rename): unlike an upload's file name,
 * which is cleaned silently, a name typed to be shown is refused rather than changed behind its author.
 */
export function originalNameProblems(name: string, at: string): string[] {
  const problems: string[] = [];
  if (name.trim() === '') problems.push(`${at} must have a visible character`);
  if (Array.from(name).some(isControlChar)) problems.push(`${at} must not contain control characters`);
  return problems;
}
