import {
  BSON,
  MongoBulkWriteError,
  MongoClientClosedError,
  MongoError,
  MongoNetworkError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerClosedError,
  MongoServerError,
  MongoServerSelectionError,
  MongoTopologyClosedError,
} from 'mongodb';

/**
 * What a driver or server error means for the request that met it. The names of the classes and
 * server codes live here only; lib/errors/translate.ts turns each kind into an HTTP error.
 */
export type DriverFailure =
  | { kind: 'unreachable' }
  | { kind: 'timeout' }
  | { kind: 'too_large' }
  | { kind: 'invalid_value'; detail: string | null }
  | { kind: 'duplicate_key'; fields: string[] };

/** Server codes from MongoDB's error_codes.yml, grouped by what they tell the client. */
const UNREACHABLE_CODES = new Set([
  6, // HostUnreachable
  7, // HostNotFound
  89, // NetworkTimeout
  91, // ShutdownInProgress
  189, // PrimarySteppedDown
  9001, // SocketException
  10107, // NotWritablePrimary
  11600, // InterruptedAtShutdown
  11602, // InterruptedDueToReplStateChange
  13435, // NotPrimaryNoSecondaryOk
  13436, // NotPrimaryOrSecondary
]);
const TIMEOUT_CODES = new Set([
  50, // MaxTimeMSExpired
  262, // ExceededTimeLimit
]);
const TOO_LARGE_CODES = new Set([
  10334, // BSONObjectTooLarge
  17419, // the document an update would produce is over 16 MB
  4031700, // also reported for a document over 16 MB
]);
const INVALID_VALUE_CODES = new Set([
  2, // BadValue
  52, // DollarPrefixedFieldName
  56, // EmptyFieldName
  57, // DottedFieldName
]);
export const DUPLICATE_KEY = 11000;

/** Driver errors the driver does not export, known by their stable names. */
const UNREACHABLE_NAMES = new Set(['MongoPoolClosedError', 'MongoWaitQueueTimeoutError']);
/** BSON errors raised while reading stored bytes or by the runtime, not by a value the client sent. */
const SERVER_SIDE_BSON_NAMES = new Set(['BSONOffsetError', 'BSONRuntimeError']);

export function isDuplicateKey(err: unknown): err is MongoServerError {
  return err instanceof MongoServerError && err.code === DUPLICATE_KEY;
}

/**
 * A duplicate key on the named index. Both engines name it in the message ("… index: NAME dup
 * key: …"); mongo-java-server sends no keyPattern, so the message is what both have in common.
 */
export function isDuplicateKeyOn(err: unknown, indexName: string): boolean {
  return isDuplicateKey(err) && / index: (\S+) dup key/.exec(err.message)?.[1] === indexName;
}

function isUnreachable(err: MongoError): boolean {
  return (
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    err instanceof MongoNotConnectedError ||
    err instanceof MongoTopologyClosedError ||
    err instanceof MongoClientClosedError ||
    err instanceof MongoServerClosedError ||
    UNREACHABLE_NAMES.has(err.name)
  );
}

function serverFailure(err: MongoServerError): DriverFailure | null {
  const code = typeof err.code === 'number' ? err.code : -1;
  if (code === DUPLICATE_KEY) {
    // keyValue names the colliding fields; bucket_id is how every collection is shared, not a client field.
    const keyValue: unknown = err.keyValue;
    const fields = keyValue && typeof keyValue === 'object' ? Object.keys(keyValue) : [];
    return { kind: 'duplicate_key', fields: fields.filter((f) => f !== 'bucket_id') };
  }
  if (TIMEOUT_CODES.has(code)) return { kind: 'timeout' };
  if (UNREACHABLE_CODES.has(code)) return { kind: 'unreachable' };
  if (TOO_LARGE_CODES.has(code)) return { kind: 'too_large' };
  // BadValue is also how an insert just over 16 MB is refused ("object to insert too large").
  if (code === 2 && /too large/i.test(err.message)) return { kind: 'too_large' };
  // The server's own text can name collections and indexes, so it is not passed on.
  if (INVALID_VALUE_CODES.has(code)) return { kind: 'invalid_value', detail: null };
  return null;
}

/** The kind of a driver, server or BSON error; null for anything else (including unknown server codes). */
export function classifyDriverError(err: unknown): DriverFailure | null {
  if (BSON.BSONError.isBSONError(err)) {
    // The BSON library's messages are about the value being encoded ("key a must not contain null bytes").
    return SERVER_SIDE_BSON_NAMES.has(err.name) ? null : { kind: 'invalid_value', detail: err.message };
  }
  if (!(err instanceof MongoError)) return null;
  // insertMany and bulkWrite wrap a driver error (a dropped connection, say) in a bulk write error.
  const wrapped: unknown = err instanceof MongoBulkWriteError ? err.errorResponse : null;
  if (wrapped instanceof MongoError && !(wrapped instanceof MongoServerError)) return classifyDriverError(wrapped);
  if (err instanceof MongoOperationTimeoutError) return { kind: 'timeout' };
  if (isUnreachable(err)) return { kind: 'unreachable' };
  if (err instanceof MongoServerError) return serverFailure(err);
  return null;
}
