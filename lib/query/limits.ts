/**
 * Bounds on everything a client can make the query engine recurse over or send to MongoDB.
 * All are checked before translation, so an oversized request never reaches the database.
 */

/** Characters of the URL-decoded `query` JSON; larger filters are almost certainly abuse. */
export const MAX_QUERY_LENGTH = 16 * 1024;

/** `$and` / `$or` / `$nor` / filter-level `$not` levels; deep trees cost planner time, not expressiveness. */
export const MAX_LOGICAL_DEPTH = 8;

/** Field conditions, operators and logical entries of one filter (list values are bounded separately). */
export const MAX_FILTER_NODES = 1000;

/** Values in one `$in` / `$nin` / `$all`; large id lists belong in several requests. */
export const MAX_LIST_VALUES = 500;

/** Characters of one `$regex` pattern; bounds the server-side cost of a pathological pattern. */
export const MAX_REGEX_LENGTH = 256;

/** Segments after `metadata.`; parent and repeater Metafields nest, but not this deep. */
export const MAX_METADATA_PATH_SEGMENTS = 6;

/** Problems listed in one 400: every 400 lists through ValidationErrors, which owns the cap. */
export { MAX_REPORTED_PROBLEMS } from '../errors/http-errors.js';

/** Levels of Object relationships `depth` may expand; each level is one more lookup stage. */
export const MAX_DEPTH = 3;

/** Entries of `props`. */
export const MAX_PROPS = 100;

/** Flags MongoDB accepts in `$options` that are safe to expose. */
export const REGEX_FLAGS = 'imsx';

/** The spec's cap on read responses ("about 6 MB"), for both the stored data read and the JSON sent. */
export const RESPONSE_CAP_BYTES = 6 * 1024 * 1024;
