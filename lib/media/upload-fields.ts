import { ValidationErrors } from '../errors/http-errors.js';
import { addBoundsReport, jsonBoundsProblems, type BoundsReport } from '../validation/json-bounds.js';
import { MAX_JSON_VALUE_DEPTH, MAX_OBJECT_KEYS } from '../validation/limits.js';

export interface UploadFields {
  folder: string | null;
  alt_text: string;
  metadata: Record<string, unknown>;
  trigger_webhook: boolean;
}

const KNOWN = new Set(['write_key', 'folder', 'metadata', 'trigger_webhook', 'alt_text']);
export const MAX_FOLDER_LENGTH = 200;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Problems with a media `metadata` value: its nesting and key counts are bounded, and keys
 * starting with "$" or holding "." or NUL are refused: MongoDB reads them as operators and
 * paths, so they could never be queried back.
 */
export function metadataProblems(value: unknown, at = 'metadata'): BoundsReport {
  if (!isPlainObject(value)) return { problems: [`${at} must be a JSON object`], unlisted: 0 };
  return jsonBoundsProblems(value, at, {
    maxDepth: MAX_JSON_VALUE_DEPTH,
    maxKeys: MAX_OBJECT_KEYS,
    storableKeys: true,
  });
}

/**
 * The text fields of an upload form, every problem reported in one 400. `metadata` arrives as a
 * JSON string; bracketed fields (`metadata[caption]`) from older form builders arrive as an
 * object and are taken as they are.
 */
export function parseUploadFields(body: Record<string, unknown> | undefined): UploadFields {
  const form = body ?? {};
  const errors = new ValidationErrors();
  const text = (name: string): string | undefined => {
    const value = form[name];
    if (value === undefined) return undefined;
    if (typeof value === 'string') return value;
    errors.add(`form field "${name}" must be given once as plain text`);
    return undefined;
  };
  const unknown = Object.keys(form).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) {
    errors.add(
      `unknown form field(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')}; allowed: media, ${[...KNOWN].join(', ')}`,
    );
  }
  text('write_key');

  const folderRaw = text('folder')?.trim();
  if (folderRaw !== undefined && folderRaw.length > MAX_FOLDER_LENGTH)
    errors.add(`folder must be at most ${MAX_FOLDER_LENGTH} characters`);

  let metadata: unknown = {};
  if (isPlainObject(form.metadata)) metadata = form.metadata;
  else {
    const raw = text('metadata');
    if (raw !== undefined && raw.trim() !== '') {
      try {
        metadata = JSON.parse(raw);
      } catch (err) {
        errors.add(`metadata must be a JSON object: ${err instanceof SyntaxError ? err.message : 'not valid JSON'}`);
        metadata = {};
      }
    }
  }
  addBoundsReport(errors, metadataProblems(metadata));

  const webhook = text('trigger_webhook');
  if (webhook !== undefined && !['true', 'false', ''].includes(webhook)) {
    errors.add(`trigger_webhook must be "true" or "false", got ${JSON.stringify(webhook.slice(0, 40))}`);
  }
  const altText = text('alt_text') ?? '';

  errors.throwIfAny('Invalid upload');
  return {
    folder: folderRaw ? folderRaw : null,
    alt_text: altText,
    metadata: metadata as Record<string, unknown>,
    trigger_webhook: webhook === 'true',
  };
}
