import assert from 'node:assert/strict';
import { framingRefusal } from '../../lib/extensions/framing.js';

const check = (xFrameOptions?: string, contentSecurityPolicy?: string) =>
  framingRefusal({ xFrameOptions, contentSecurityPolicy });

describe('extension framing check', () => {
  it('allows a page without framing headers, or framing from anywhere', () => {
    assert.equal(check(), null);
    assert.equal(check('', "default-src 'self'"), null);
    assert.equal(check(undefined, "default-src 'self'; frame-ancestors *"), null);
    assert.equal(check(undefined, 'frame-ancestors https:'), null);
  });

  it('refuses every X-Frame-Options that names who may frame, in any case', () => {
    assert.match(check('DENY') ?? '', /X-Frame-Options: DENY/);
    assert.match(check('sameorigin') ?? '', /X-Frame-Options: SAMEORIGIN/);
    assert.match(check('ALLOW-FROM https://a.example') ?? '', /ALLOW-FROM/);
    assert.match(check('allowall, DENY') ?? '', /DENY/);
  });

  it("refuses frame-ancestors 'none', 'self', an empty list or a host list without *", () => {
    assert.match(check(undefined, "frame-ancestors 'none'") ?? '', /'none'/);
    assert.match(check(undefined, "frame-ancestors 'self' https://a.example") ?? '', /'self' https:\/\/a\.example/);
    assert.match(check(undefined, 'frame-ancestors') ?? '', /'none'/);
    assert.match(check(undefined, 'FRAME-ANCESTORS https://*.example.com') ?? '', /may not be framed from anywhere/);
  });

  it('applies every policy of a repeated header, and only the first frame-ancestors of one policy', () => {
    assert.match(check(undefined, "default-src *, frame-ancestors 'self'") ?? '', /'self'/);
    assert.equal(check(undefined, "frame-ancestors *; frame-ancestors 'none'"), null);
  });
});
