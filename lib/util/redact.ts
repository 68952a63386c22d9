/** What replaces a secret in a log line. */
export const REDACTED = '[REDACTED]';

/** Names under which clients send keys, tokens and passwords (query strings, forms, JSON bodies). */
const SECRET_NAMES = 'read_key|write_key|preview_token|access_token|refresh_token|token|password|secret|api_key';

// A value already censored (by redactUrl) is left alone, so the text after it stays as it was.
const IN_QUERY = new RegExp(`([?&;\\s"']|^)(${SECRET_NAMES})=(?!\\[REDACTED\\])[^&\\s#"']*`, 'gi');
const IN_JSON = new RegExp(`("(?:${SECRET_NAMES})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
const BEARER = /\b(Bearer|Basic)\s+[^\s,;"']+/gi;

/**
 * A log message with every secret it may carry replaced: `name=value` pairs of a URL or form,
 * `"name": "value"` members of a JSON text, and credentials after `Bearer`/`Basic`. Messages are
 * free text (a failing request's URL, a driver error), so this is the net under whatever reaches
 * the log; request lines themselves never include URLs, headers or bodies.
 */
export function scrubSecrets(text: string): string {
  return text
    .replace(IN_QUERY, (_m, lead: string, name: string) => `${lead}${name}=${REDACTED}`)
    .replace(IN_JSON, (_m, head: string) => `${head}"${REDACTED}"`)
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}

const SECRET_NAME = new RegExp(`^(?:${SECRET_NAMES})$`, 'i');

/**
 * A request URL (path and query) with the values of its secret parameters replaced. The query is
 * decoded first, so an encoded name (`read%5Fkey`) is caught as well.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  const pairs = [...params].map(
    ([name, value]) => `${encodeURIComponent(name)}=${SECRET_NAME.test(name) ? REDACTED : encodeURIComponent(value)}`,
  );
  return `${url.slice(0, q)}?${pairs.join('&')}`;
}

/**
 * Fields pino itself censors in logged objects, so a secret passed as a field (a header, query or
 * body logged while debugging) never reaches the output either. Exact paths only: a wildcard path
 * makes pino walk every object logged, which cost about 24 µs per request line.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  ...SECRET_NAMES.split('|').flatMap((name) => [
    name,
    `query.${name}`,
    `body.${name}`,
    `req.query.${name}`,
    `req.body.${name}`,
  ]),
];
