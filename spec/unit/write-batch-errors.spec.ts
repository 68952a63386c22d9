import assert from 'node:assert/strict';
import { MongoClientBulkWriteError, MongoServerError } from 'mongodb';
import { commandError } from '../../lib/db/write-batch.js';

describe('write-batch: errors of a bulkWrite as a whole (pure)', () => {
  const serverError = new MongoServerError({ message: 'no such command: bulkWrite', code: 59 });

  it('gives the server’s own error when the command failed as a whole', () => {
    const wrapped = new MongoClientBulkWriteError({ message: 'Mongo client bulk write encountered an error' });
    wrapped.cause = serverError;
    assert.equal(commandError(wrapped), serverError);
  });

  it('keeps a bulkWrite error that names failed writes, and any other error, as it is', () => {
    const withWrites = new MongoClientBulkWriteError({ message: 'write errors' });
    withWrites.cause = serverError;
    withWrites.writeErrors = new Map([[0, { code: 11000, message: 'E11000' }]]);
    assert.equal(commandError(withWrites), withWrites);
    assert.equal(commandError(serverError), serverError);
  });
});
