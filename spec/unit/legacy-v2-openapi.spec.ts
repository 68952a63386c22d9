import assert from 'node:assert/strict';
import { v2MirroredPaths } from '../../lib/openapi/legacy-v2.js';
import { V2_MIRRORED_PATHS, V2_OWN_OPERATIONS } from '../../lib/openapi/legacy-v2-operations.js';

const openApi = (p: string) => p.replace(/:([A-Za-z_]+)/g, '{$1}');

/** v3 descriptions of every mirrored path (get and delete each), and the file's v2-own operations. */
function fixture(): Record<string, Record<string, unknown>> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const p of V2_MIRRORED_PATHS) {
    paths[openApi(p)] = { get: { operationId: 'read', tags: ['v3'] }, delete: { operationId: 'remove' } };
  }
  for (const op of V2_OWN_OPERATIONS) {
    const [method = '', p = ''] = op.split(' ');
    paths[`/v2${openApi(p)}`] = { ...paths[`/v2${openApi(p)}`], [method]: { operationId: 'own' } };
  }
  return paths;
}

describe('v2MirroredPaths', () => {
  it("copies each v3 operation as v2's, tagged legacy-v2 and deprecated, and keeps the file's own ones", () => {
    const out = v2MirroredPaths(fixture()) as Record<string, Record<string, unknown>>;
    assert.deepEqual(out['/v2/buckets/{slug}/webhooks']?.get, {
      operationId: 'v2_read',
      tags: ['legacy-v2'],
      deprecated: true,
    });
    assert.deepEqual(out['/v2/buckets/{slug}/objects']?.get, { operationId: 'own' });
    assert.deepEqual(out['/v2/buckets/{slug}/objects'].delete, {
      operationId: 'v2_remove',
      tags: ['legacy-v2'],
      deprecated: true,
    });
  });

  it('refuses a v2-own operation the file does not describe', () => {
    const paths = fixture();
    delete paths['/v2/buckets/{slug}/media'];
    assert.throws(
      () => v2MirroredPaths(paths),
      /get \/v2\/buckets\/\{slug\}\/media must be described in legacy-v2\.json as v2/,
    );
  });

  it('refuses a file description of an operation the v3 mirror describes', () => {
    const paths = fixture();
    paths['/v2/buckets/{slug}/webhooks'] = { get: { operationId: 'twin' } };
    assert.throws(
      () => v2MirroredPaths(paths),
      /get \/v2\/buckets\/\{slug\}\/webhooks must be described .* only by the v3 mirror/,
    );
  });
});
