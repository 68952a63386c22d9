import assert from 'node:assert/strict';
import { HttpError } from '../../lib/errors/http-errors.js';
import { ifMatchAccepts, ifMatchOfVersion, parseIfMatch, versionConflict } from '../../lib/http/if-match.js';

describe('If-Match', () => {
  it('reads *, one tag, a list, and the version ahead of a read tag digest', () => {
    assert.equal(parseIfMatch(undefined), null);
    const any = parseIfMatch(' * ');
    assert.ok(any && ifMatchAccepts(any, '123'));
    const one = parseIfMatch('"123"');
    assert.ok(one && ifMatchAccepts(one, '123') && !ifMatchAccepts(one, '124'));
    const listed = parseIfMatch('"5-abc", "123-Zx_9"');
    assert.ok(listed && ifMatchAccepts(listed, '123') && ifMatchAccepts(listed, '5'));
  });

  it('never matches a weak tag (If-Match compares strongly)', () => {
    const weak = parseIfMatch('W/"123"');
    assert.ok(weak && !ifMatchAccepts(weak, '123'));
  });

  it('refuses what is not a list of entity tags with a 400 naming it', () => {
    for (const bad of ['123', '"12', 'W/123', '"a" "b"', '']) {
      assert.throws(
        () => parseIfMatch(bad),
        (err: unknown) => err instanceof HttpError && err.status === 400 && /If-Match/.test(err.message),
        bad,
      );
    }
    assert.throws(() => parseIfMatch(Array.from({ length: 21 }, (_, i) => `"${String(i)}"`).join(',')), /more than 20/);
  });

  it('takes a batch version bare or as an ETag', () => {
    assert.ok(ifMatchAccepts(ifMatchOfVersion('77'), '77'));
    assert.ok(ifMatchAccepts(ifMatchOfVersion('"77-digest"'), '77'));
    assert.ok(!ifMatchAccepts(ifMatchOfVersion('W/"77"'), '77'));
  });

  it('names the version in place, who wrote it and when, in a 412 with its ETag', () => {
    const at = new Date('2026-01-02T03:04:05.006Z');
    const err = versionConflict('Object x', { modified_at: at, modified_by: 'acct1' });
    assert.equal(err.status, 412);
    assert.equal(err.code, 'version_conflict');
    assert.deepEqual(err.current, {
      version: String(at.getTime()),
      modified_at: at.toISOString(),
      modified_by: 'acct1',
    });
    assert.equal(err.headers.ETag, `"${String(at.getTime())}"`);
    assert.match(err.message, /by acct1/);
  });
});
