/**
 * Every machine-readable error code a body can carry, with the HTTP status it goes with. Clients
 * branch on `code`; the message is for people and may be reworded. The OpenAPI error schema and
 * docs/api.md ("Errors") list these codes, and a test keeps all three in step.
 */
export const ERROR_CODES = {
  bad_request: { status: 400, description: 'The request is malformed in a way no more specific code covers.' },
  invalid_parameter: { status: 400, description: 'A query-string parameter is missing, repeated or out of range.' },
  invalid_query: { status: 400, description: 'The `query` filter is not valid JSON or breaks the query language.' },
  query_too_broad: {
    status: 400,
    description: 'A `$regex` on `content` would scan more text than a request may; narrow the other conditions.',
  },
  query_too_complex: {
    status: 400,
    description:
      'A GraphQL operation is deeper, has more aliases or would cost more than the GRAPHQL_MAX_* settings allow; nothing was read.',
  },
  invalid_body: {
    status: 400,
    description: 'The JSON body or upload form is malformed or does not match the route schema.',
  },
  metafield_invalid: { status: 400, description: 'A metadata value fails its Metafield rules.' },
  slug_taken: { status: 400, description: 'The slug sent is already used by another item of the Bucket.' },
  singleton_taken: {
    status: 400,
    description: 'A singleton type already has its Object (in that locale), or has too many to become one.',
  },
  type_in_use: {
    status: 400,
    description: 'Relationship Metafields of other Object types name the type, so it cannot be deleted.',
  },
  type_has_objects: {
    status: 400,
    description: 'A legacy route that keeps Objects was asked to delete an Object type that still has some.',
  },
  folder_unknown: {
    status: 400,
    description:
      'A media edit or move_to names a media folder the Bucket does not have (create it first), or an upload names a folder that cannot be a slug.',
  },
  folder_has_media: {
    status: 400,
    description: 'A media folder that still holds media was asked to be deleted without move_to.',
  },
  extension_zip_invalid: {
    status: 400,
    description: 'An extension archive is not a zip, is damaged, has unsafe entry names or is over a cap.',
  },
  extension_fetch_failed: {
    status: 400,
    description: "An extension's zip_url or url could not be fetched or checked; the message says why.",
  },
  extension_unframeable: {
    status: 400,
    description: "An extension's url forbids framing (X-Frame-Options or CSP frame-ancestors).",
  },
  unauthorized: { status: 401, description: 'The key or token is missing, wrong or expired.' },
  plan_limit_reached: {
    status: 402,
    description: "A limit of the Bucket's plan is reached (the message names it); upgrade the plan.",
  },
  forbidden: {
    status: 403,
    description: "The account token is valid, but the account's role in the Bucket does not allow this request.",
  },
  not_found: { status: 404, description: 'The addressed resource does not exist (no more specific code applies).' },
  bucket_not_found: { status: 404, description: 'No Bucket has the slug in the path.' },
  object_not_found: { status: 404, description: 'No Object of the Bucket has the id in the path.' },
  object_type_not_found: { status: 404, description: 'No Object type of the Bucket has the slug in the path.' },
  revision_not_found: { status: 404, description: 'The Object has no revision with the id in the path.' },
  media_not_found: { status: 404, description: 'No media item of the Bucket has the id or file name in the path.' },
  folder_not_found: { status: 404, description: 'No media folder of the Bucket has the slug in the path.' },
  webhook_not_found: { status: 404, description: 'No webhook of the Bucket has the id in the path.' },
  delivery_not_found: { status: 404, description: 'The webhook has no delivery with the id in the path.' },
  extension_not_found: { status: 404, description: 'No Extension of the Bucket has the id in the path.' },
  no_match: { status: 404, description: 'A list query matched nothing; clients read this as "none".' },
  route_not_found: { status: 404, description: 'No route outside /v3 serves the path.' },
  request_timeout: {
    status: 408,
    description: 'The request line, headers or body did not arrive within the time limit.',
  },
  conflict: {
    status: 409,
    description:
      'The write collides with another: a unique key taken, the Object changed meanwhile, or a request with the same Idempotency-Key is running; retry.',
  },
  delivery_in_progress: {
    status: 409,
    description: 'The delivery is being attempted right now; redeliver it once the attempt has ended.',
  },
  merge_request_closed: {
    status: 409,
    description: 'The merge request was already merged or closed, or a merge of it is running.',
  },
  merge_conflict: {
    status: 409,
    description: 'An Object of the merge request changed or was deleted after its draft was recorded.',
  },
  version_conflict: {
    status: 412,
    description:
      "If-Match (or a batch operation's `version`) names a version that is no longer the latest; nothing was written. The body's `current` says which version is, who made it and when.",
  },
  payload_too_large: {
    status: 413,
    description: 'The request body or upload is over its size limit, or a document would pass 16 MB.',
  },
  response_too_large: { status: 413, description: 'The response would exceed the 6 MB cap or the work bound.' },
  unsupported_media_type: { status: 415, description: 'The Content-Type is not one the route accepts.' },
  range_not_satisfiable: { status: 416, description: 'The requested byte range is outside the file.' },
  idempotency_key_reused: {
    status: 422,
    description: 'The Idempotency-Key was used in the last 24 hours with another request (route or body).',
  },
  rate_limited: {
    status: 429,
    description: 'Too many requests of this kind from this client at once; retry after Retry-After seconds.',
  },
  rate_limit_exceeded: {
    status: 429,
    description: 'The reads or writes per minute of this credential are used up; retry after `Retry-After`.',
  },
  login_throttled: {
    status: 429,
    description: 'Too many login attempts for the e-mail or from this address; retry after `Retry-After`.',
  },
  headers_too_large: {
    status: 431,
    description: 'The request line and headers together are over 16 KB (often a very long URL).',
  },
  internal_error: { status: 500, description: 'A server-side failure; nothing about it is disclosed.' },
  service_unavailable: {
    status: 503,
    description: 'The database is unreachable; retry after the `Retry-After` seconds.',
  },
  type_write_busy: {
    status: 503,
    description: 'Another Object type change of the Bucket is in progress; retry after `Retry-After` seconds.',
  },
  query_timeout: { status: 503, description: 'The query took longer than the time limit; narrow it.' },
  login_busy: {
    status: 503,
    description: 'Too many password checks at once in this process; retry after `Retry-After` seconds.',
  },
  server_busy: {
    status: 503,
    description: 'The server holds as many connections as it accepts; retry after `Retry-After` seconds.',
  },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The codes that go with one status, so a 404 cannot be thrown with a 400 code. */
export type ErrorCodeFor<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]['status'] extends S ? C : never;
}[ErrorCode];
