import { ValidationErrors } from '../errors/http-errors.js';
import { parseProps } from '../query/props.js';
import type { WebhookCreate, WebhookPatch } from '../types/bodies.generated.js';
import { assertValid } from '../validation/ajv-messages.js';
import { quote } from '../util/quote.js';
import { HEADER_MASK } from './header-mask.js';

/** RFC 9110 field-name characters. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, spaces and tabs: no CR or LF that could split a header. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;
/**
 * Hop-by-hop headers and Host belong to the connection, not the webhook; the others are what the
 * service sends and signs, which a custom header must not replace.
 */
const RESERVED_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'content-type',
  'user-agent',
]);

function endpointProblem(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return `body.endpoint ${quote(endpoint)} must be an absolute http or https URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `body.endpoint must use http or https, got ${quote(url.protocol.slice(0, -1))}`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'body.endpoint must not hold credentials: send them in a custom header such as Authorization';
  }
  return null;
}

function headerProblems(headers: Record<string, string>, errors: ValidationErrors): void {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) errors.add(`body.headers: ${quote(name)} is not a valid header name`);
    else if (RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-')) {
      errors.add(`body.headers: ${quote(name)} cannot be set (hop-by-hop, Host, or a header the service sends itself)`);
    } else if (seen.has(lower)) errors.add(`body.headers: ${quote(name)} is given twice (names are case-insensitive)`);
    // The mask stands for a stored value (header-mask.ts), resolved once the webhook is read.
    if (!HEADER_VALUE.test(value) && value !== HEADER_MASK)
      errors.add(`body.headers.${name} must be printable ASCII without line breaks`);
    seen.add(lower);
  }
}

/** The checks the schema cannot make, every problem of the body listed in one 400. */
function checkFields(input: WebhookCreate | WebhookPatch): void {
  const errors = new ValidationErrors();
  if (input.endpoint !== undefined) {
    const problem = endpointProblem(input.endpoint);
    if (problem !== null) errors.add(problem);
  }
  if (typeof input.props === 'string')
    parseProps(input.props, (p) => {
      errors.add(`body.${p}`);
    });
  if (input.headers !== undefined) headerProblems(input.headers, errors);
  errors.throwIfAny('Invalid request body', 'invalid_body');
}

export function assertWebhookCreate(input: unknown): asserts input is WebhookCreate {
  assertValid('WebhookCreate', input, 'body');
  checkFields(input);
}

export function assertWebhookPatch(input: unknown): asserts input is WebhookPatch {
  assertValid('WebhookPatch', input, 'body');
  checkFields(input);
}
