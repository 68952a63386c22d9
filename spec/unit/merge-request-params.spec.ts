import assert from 'node:assert/strict';
import { onlyParams } from '../../lib/merge-requests/recorded.js';

describe('onlyParams: the parameters merge-request Object reads take', () => {
  const check = onlyParams(['read_key', 'limit']);
  it('accepts the listed parameters and pretty', () => {
    assert.deepEqual(check({ read_key: 'k', limit: '2', pretty: 'true' }), []);
  });
  it('names each other parameter, saying what the route takes', () => {
    assert.deepEqual(check({ limit: '1', sort: 'x', metadata: { a: '1' } }), [
      'sort is not supported on merge-request Objects, which take read_key, limit, pretty',
      'metadata is not supported on merge-request Objects, which take read_key, limit, pretty',
    ]);
  });
});
