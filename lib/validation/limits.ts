/**
 * Bounds on the shape of what clients write: JSON bodies, Metafield definitions and the values
 * stored under them. All are checked before schema validation and before anything reaches the
 * database, whose own recursion (BSON, the engine's document code) is what a deep value breaks.
 */

/**
 * Levels of arrays and objects in a `json` Metafield value or a media item's `metadata`.
 * Deep enough for any real document; a few hundred levels overflow the stack of an engine.
 */
export const MAX_JSON_VALUE_DEPTH = 32;

/**
 * Levels in a whole JSON body: room for the deepest envelope (a batch operation's metadata is 5
 * levels down), MAX_METAFIELD_DEPTH levels of parents and repeater items, and a `json` value
 * of MAX_JSON_VALUE_DEPTH. Stored documents stay well below MongoDB's 100-level limit.
 */
export const MAX_BODY_DEPTH = 64;

/** Keys of one object, at any level of a body or of a stored value. */
export const MAX_OBJECT_KEYS = 1000;

/** Levels of Metafields: top-level Metafields are level 1, each parent or repeater adds one. */
export const MAX_METAFIELD_DEPTH = 8;

/** Characters of a Metafield `regex`; it is parsed and checked for catastrophic backtracking. */
export const MAX_METAFIELD_REGEX_LENGTH = 1000;

/**
 * Bytes of a JSON body on a keyed Bucket when no Authorization header is sent: such a request
 * can only carry the legacy `write_key` body field, so it is read (and parsed) before anyone
 * knows whether the sender may write. Larger anonymous bodies get 401 without being read.
 */
export const MAX_UNAUTHENTICATED_BODY_BYTES = 16 * 1024;

/**
 * Keys and array items of a value for which every schema problem is listed. Listing costs a few
 * microseconds per problem; beyond this only the first problem of an invalid value is reported.
 */
export const MAX_FULLY_CHECKED_VALUES = 20_000;
