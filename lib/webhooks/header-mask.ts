import { ValidationErrors } from '../errors/http-errors.js';
import { quote } from '../util/quote.js';
import type { WebhookDoc } from '../store/webhooks.js';

/**
 * What every answer shows for a custom header's value: they hold endpoint credentials such as
 * `Authorization: Bearer …`, which anyone who may read the webhook need not see. Not ASCII, so
 * it can never be a stored value (validate.ts takes printable ASCII only); a body that sends it
 * back for a header means "keep the value stored under that name".
 */
export const HEADER_MASK = '••••';

type StoredHeaders = WebhookDoc['headers'];

/** The headers as answered: every name, no value. */
export function maskedHeaders(headers: StoredHeaders): Record<string, string> {
  return Object.fromEntries(headers.map(({ name }) => [name, HEADER_MASK]));
}

/**
 * The headers a body sets, each masked value replaced by the value stored under the same name
 * (names compared case-insensitively; the spelling sent is kept). A mask with no stored value
 * behind it (every mask on create) is a 400 naming each, as the body's other problems are.
 */
export function unmaskHeaders(sent: Record<string, string>, stored: StoredHeaders): StoredHeaders {
  const byName = new Map(stored.map(({ name, value }) => [name.toLowerCase(), value]));
  const errors = new ValidationErrors();
  const out = Object.entries(sent).map(([name, value]) => {
    if (value !== HEADER_MASK) return { name, value };
    const kept = byName.get(name.toLowerCase());
    if (kept === undefined) {
      errors.add(`body.headers.${name} is the mask of a stored value, and ${quote(name)} has none: send its value`);
    }
    return { name, value: kept ?? '' };
  });
  errors.throwIfAny('Invalid request body', 'invalid_body');
  return out;
}
