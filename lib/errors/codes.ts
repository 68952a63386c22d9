/**
 * Every machine-readable error code a body can carry, with the HTTP status it goes with. Clients
 * branch on `code`; the message is for people and may be reworded. The OpenAPI error schema and
 * the README list these codes, and a test keeps all three in step.
 */
export const ERROR_CODES = {
  bad_request: { status: 400, description: 'The request is malformed in a way no more specific code covers.' },
  invalid_parameter: { status: 400, description: 'A query-string parameter is missing, repeated or out of range.' },
  invalid_query: { status: 400, description: 'The `query` filter is not valid JSON or breaks the query language.' },
  invalid_body: { status: 400, description: 'The JSON body is malformed or does not match the route schema.' },
  metafield_invalid: { status: 400, description: 'A metadata value fails its Metafield rules.' },
  unauthorized: { status: 401, description: 'The key or token is missing, wrong or expired.' },
  not_found: { status: 404, description: 'The addressed resource does not exist in the Bucket.' },
  conflict: { status: 409, description: 'The write conflicts with existing data (for example a taken slug).' },
  payload_too_large: { status: 413, description: 'The request body or upload is over its size limit.' },
  response_too_large: { status: 413, description: 'The response would exceed the 6 MB cap or the work bound.' },
  unsupported_media_type: { status: 415, description: 'The Content-Type is not one the route accepts.' },
  range_not_satisfiable: { status: 416, description: 'The requested byte range is outside the file.' },
  rate_limited: {
    status: 429,
    description: 'Too many requests of this kind from this client at once; retry after Retry-After seconds.',
  },
  internal_error: { status: 500, description: 'A server-side failure; nothing about it is disclosed.' },
  service_unavailable: { status: 503, description: 'The database is unreachable or too slow; retry later.' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
