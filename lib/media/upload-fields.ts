import { InvalidUploadError } from '../errors/domain-errors.js';
import { isPlainObject } from '../util/values.js';
import { quote } from '../util/quote.js';
import { jsonBoundsProblems } from '../validation/json-bounds.js';
import { MAX_JSON_VALUE_DEPTH, MAX_OBJECT_KEYS } from '../validation/limits.js';

export interface UploadFields {
  folder: string | null;
  alt_text: string;
  metadata: Record<string, unknown>;
  trigger_webhook: boolean;
}

const KNOWN = new Set(['write_key', 'folder', 'metadata', 'trigger_webhook', 'alt_text']);
export const MAX_FOLDER_LENGTH = 200;

/**
 * Problems with a media `metadata` value: its nesting and key counts are bounded, and keys
 * starting with "$" or holding "." are refused: MongoDB reads them as operators and paths, so
 * they could never be queried back; a key holding NUL cannot be stored at all.
 */
export function metadataProblems(value: unknown, at = 'metadata'): string[] {
  if (!isPlainObject(value)) return [`${at} must be a JSON object`];
  const { problems, unlisted } = jsonBoundsProblems(value, at, {
    maxDepth: MAX_JSON_VALUE_DEPTH,
    maxKeys: MAX_OBJECT_KEYS,
    storableKeys: true,
  });
  return unlisted > 0 ? [...problems, `and ${unlisted} more problems`] : problems;
}

/**
 * The text fields of an upload form, every problem reported in one 400. `metadata` arrives as a
 * JSON string; bracketed fields (`metadata[caption]`) from older form builders arrive as an
 * object and are taken as they are.
 */
export function parseUploadFields(body: Record<string, unknown> | undefined): UploadFields {
  const form = body ?? {};
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = form[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    problems.push(`form field "${name}" must be given once as plain text`);
    return undefined;
  };
  const unknown = Object.keys(form).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) {
    problems.push(`unknown form field(s) ${unknown.map(quote).join(', ')}; allowed: media, ${[...KNOWN].join(', ')}`);
  }
  text('write_key');

  const folderRaw = text('folder')?.trim();
  if (folderRaw !== undefined && folderRaw.length > MAX_FOLDER_LENGTH)
    problems.push(`folder must be at most ${MAX_FOLDER_LENGTH} characters`);

  let metadata: unknown = {};
  if (isPlainObject(form.metadata)) metadata = form.metadata;
  else {
    const raw = text('metadata');
    if (raw !== undefined && raw.trim() !== '') {
      try {
        metadata = JSON.parse(raw);
      } catch (err) {
        problems.push(`metadata must be a JSON object: ${err instanceof SyntaxError ? err.message : 'not valid JSON'}`);
        metadata = {};
      }
    }
  }
  problems.push(...metadataProblems(metadata));

  const webhook = text('trigger_webhook');
  if (webhook !== undefined && !['true', 'false', ''].includes(webhook)) {
    problems.push(`trigger_webhook must be "true" or "false", got ${quote(webhook)}`);
  }
  const altText = text('alt_text') ?? '';

  if (problems.length > 0) throw new InvalidUploadError(problems);
  return {
    folder: folderRaw ? folderRaw : null,
    alt_text: altText,
    metadata: metadata as Record<string, unknown>,
    trigger_webhook: webhook === 'true',
  };
}
