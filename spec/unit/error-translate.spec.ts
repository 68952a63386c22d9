import assert from 'node:assert/strict';
import {
  BSON,
  type BulkWriteResult,
  MongoClient,
  MongoDriverError,
  MongoBulkWriteError,
  MongoNetworkError,
  MongoNetworkTimeoutError,
  MongoNotConnectedError,
  MongoOperationTimeoutError,
  MongoServerError,
  MongoTopologyClosedError,
} from 'mongodb';
import { ERROR_CODES } from '../../lib/errors/codes.js';
import {
  BucketAdminError,
  FileStoreError,
  InvalidUploadError,
  RangeNotSatisfiableError,
  SlugTakenError,
  UploadTooLargeError,
} from '../../lib/errors/domain-errors.js';
import { HttpError, NotFoundError } from '../../lib/errors/http-errors.js';
import { errorDetail, RETRY_AFTER_SECONDS, translateError } from '../../lib/errors/translate.js';

/** The driver's pool errors are not exported; the translator knows them by their stable names. */
class PoolClosed extends MongoDriverError {
  override get name(): string {
    return 'MongoPoolClosedError';
  }
}

function serverError(code: number, message = 'server text naming db.collection and index_1'): MongoServerError {
  return new MongoServerError({ message, errmsg: message, code });
}

/** Translates and checks what every translation must hold: the code's status is the status. */
function translated(err: unknown): HttpError {
  const out = translateError(err);
  assert.equal(out.status, ERROR_CODES[out.code].status, `${out.code} answered with ${out.status}`);
  return out;
}

function bodyParserError(type: string, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { type, ...extra });
}

describe('translateError', () => {
  it('returns an HttpError as it is', () => {
    const err = new NotFoundError('gone', 'object_not_found');
    assert.equal(translateError(err), err);
  });

  describe('database unreachable: 503 service_unavailable with Retry-After', () => {
    const cases: [string, () => unknown][] = [
      ['MongoNetworkError', () => new MongoNetworkError('connection 3 to 10.0.0.5:27017 closed')],
      ['MongoNetworkTimeoutError', () => new MongoNetworkTimeoutError('connection timed out')],
      ['MongoNotConnectedError', () => new MongoNotConnectedError('Client must be connected')],
      ['MongoTopologyClosedError', () => new MongoTopologyClosedError('Topology is closed')],
      ['a closed pool', () => new PoolClosed('Attempted to check out a connection from closed connection pool')],
      ['ShutdownInProgress (91)', () => serverError(91)],
      ['NotWritablePrimary (10107)', () => serverError(10107)],
      [
        'MongoBulkWriteError wrapping a dropped connection (insertMany)',
        () =>
          new MongoBulkWriteError(
            new MongoNetworkError('read ECONNRESET'),
            // The driver does not export BulkWriteResult as a value, and the translation never reads it.
            // eslint-disable-next-line @typescript-eslint/no-unsafe-class-instance-assignment
            {} as BulkWriteResult,
          ),
      ],
      [
        'MongoServerSelectionError from a closed port',
        async () => {
          const client = new MongoClient('mongodb://127.0.0.1:1/?serverSelectionTimeoutMS=100');
          try {
            return await client.db('x').collection('y').findOne({});
          } catch (err) {
            return err;
          } finally {
            await client.close();
          }
        },
      ],
    ];
    for (const [name, make] of cases) {
      it(name, async () => {
        const out = translated(await make());
        assert.equal(out.status, 503);
        assert.equal(out.code, 'service_unavailable');
        assert.deepEqual(out.headers, { 'Retry-After': String(RETRY_AFTER_SECONDS) });
        assert.match(out.message, /database is unreachable/);
        assert.doesNotMatch(out.message, /Mongo|connection|10\.0\.0\.5|127\.0\.0\.1|collection/);
      });
    }
  });

  describe('time limits: 503 query_timeout', () => {
    for (const [name, err] of [
      ['MaxTimeMSExpired (50)', serverError(50, 'operation exceeded time limit')],
      ['ExceededTimeLimit (262)', serverError(262)],
      ['MongoOperationTimeoutError', new MongoOperationTimeoutError('Timed out during server selection')],
    ] as const) {
      it(name, () => {
        const out = translated(err);
        assert.equal(out.code, 'query_timeout');
        assert.match(out.message, /took longer than the time limit; narrow it/);
        assert.deepEqual(out.headers, {});
      });
    }
  });

  describe('values the database cannot store', () => {
    it('a key holding NUL (BSONError) is a 400 naming the key', () => {
      let thrown: unknown;
      try {
        BSON.serialize({ 'a\u0000b': 1 });
      } catch (err) {
        thrown = err;
      }
      const out = translated(thrown);
      assert.equal(out.status, 400);
      assert.ok(out.message.includes('key a\u0000b must not contain null bytes'), out.message);
    });

    it('a BSONVersionError is a 400', () => {
      assert.equal(translated(new BSON.BSONVersionError()).status, 400);
    });

    it('BadValue (2) and dotted or $-prefixed names are 400s without the server text', () => {
      for (const code of [2, 52, 56, 57]) {
        const out = translated(serverError(code));
        assert.equal(out.status, 400, String(code));
        assert.doesNotMatch(out.message, /collection|index_1/);
      }
    });

    it('documents over 16 MB are 413s', () => {
      for (const err of [
        serverError(10334),
        serverError(17419),
        serverError(4031700),
        serverError(2, 'object to insert too large'),
      ]) {
        const out = translated(err);
        assert.equal(out.status, 413, err.message);
        assert.equal(out.code, 'payload_too_large');
        assert.match(out.message, /16 MB/);
      }
    });

    it('bytes the server sent that do not decode stay a 500', () => {
      assert.equal(translated(new BSON.BSONOffsetError('corrupt', 12)).status, 500);
    });
  });

  it('a duplicate key is a 409 naming the client fields, never bucket_id', () => {
    const err = new MongoServerError({
      message: 'E11000 duplicate key error collection: content_api.objects index: bucket_type_locale_slug_unique',
      code: 11000,
      keyValue: { bucket_id: 'x', type: 'posts', slug: 'hello' },
    });
    const out = translated(err);
    assert.equal(out.status, 409);
    assert.equal(out.code, 'conflict');
    assert.equal(out.message, 'A document with the same type, slug already exists');
  });

  describe('domain errors', () => {
    it('UploadTooLargeError is a 413', () => {
      const out = translated(new UploadTooLargeError(1000));
      assert.equal(out.code, 'payload_too_large');
      assert.equal(out.message, 'The file is larger than the 1000 byte upload limit');
    });

    it('RangeNotSatisfiableError is a 416 with the Content-Range the status needs', () => {
      const out = translated(new RangeNotSatisfiableError('bytes=500-', 100));
      assert.equal(out.code, 'range_not_satisfiable');
      assert.deepEqual(out.headers, { 'Content-Range': 'bytes */100' });
      assert.match(out.message, /bytes=500- is outside the file's 100 bytes/);
    });

    it('SlugTakenError is a 400 slug_taken', () => {
      const out = translated(new SlugTakenError("Object with slug 'a' already exists"));
      assert.equal(out.status, 400);
      assert.equal(out.code, 'slug_taken');
    });

    it('InvalidUploadError is a 400 invalid_body listing every problem', () => {
      const out = translated(new InvalidUploadError(['folder is too long', 'metadata must be a JSON object']));
      assert.equal(out.code, 'invalid_body');
      assert.equal(out.message, 'Invalid upload: folder is too long; metadata must be a JSON object');
    });

    it('FileStoreError answers what its cause means', () => {
      assert.equal(translated(new FileStoreError(new MongoNetworkError('reset'))).code, 'service_unavailable');
      assert.equal(translated(new FileStoreError(new Error('disk'))).code, 'internal_error');
    });

    it('errors no request can cause are 500s', () => {
      assert.equal(translated(new BucketAdminError('Bucket "x" already exists')).status, 500);
    });
  });

  describe('body-parser errors', () => {
    it('malformed JSON is a 400 invalid_body', () => {
      const out = translated(bodyParserError('entity.parse.failed', 'Unexpected token } in JSON at position 9'));
      assert.equal(out.code, 'invalid_body');
      assert.match(out.message, /^Malformed JSON body: Unexpected token/);
    });

    it('an oversized body is a 413 naming the limit', () => {
      const out = translated(bodyParserError('entity.too.large', 'request entity too large', { limit: 5242880 }));
      assert.equal(out.code, 'payload_too_large');
      assert.equal(out.message, 'Request body is larger than the 5242880 byte limit');
    });

    it('an unsupported charset or encoding is a 415', () => {
      assert.equal(translated(bodyParserError('charset.unsupported', 'x', { charset: 'latin-9' })).status, 415);
      assert.equal(translated(bodyParserError('encoding.unsupported', 'x', { encoding: 'br2' })).status, 415);
    });
  });

  it('a malformed percent-encoding in the path (the router URIError) is a 400', () => {
    const err = Object.assign(new URIError("Failed to decode param '%E0%A4%A'"), { status: 400 });
    const out = translated(err);
    assert.equal(out.status, 400);
    assert.match(out.message, /Malformed percent-encoding in the path .*%E0%A4%A/);
  });

  it('a 4xx marked exposed (http-errors) keeps its status and message; an unexposed one does not', () => {
    const exposed = Object.assign(new Error('Range header malformed'), { status: 400, expose: true });
    assert.equal(translated(exposed).message, 'Range header malformed');
    const hidden = Object.assign(new Error('secret'), { status: 400 });
    assert.equal(translated(hidden).status, 500);
  });

  describe('anything else: 500 internal_error that leaks nothing', () => {
    for (const [name, err] of [
      ['a plain Error', new Error('TypeError in lib/objects/objects.ts: secret')],
      ['an unknown server code', serverError(13, 'not authorized on content_api')],
      ['a thrown string', 'content_api secret'],
      ['undefined', undefined],
    ] as const) {
      it(name, () => {
        const out = translated(err);
        assert.equal(out.code, 'internal_error');
        assert.doesNotMatch(out.message, /secret|content_api|lib\//);
      });
    }
  });

  it('errorDetail keeps the cause chain for the server log', () => {
    const detail = errorDetail(new FileStoreError(new Error('chunk write failed')));
    assert.match(detail, /storing the upload failed/);
    assert.match(detail, /caused by: Error: chunk write failed/);
    assert.equal(errorDetail('plain'), 'plain');
  });
});
