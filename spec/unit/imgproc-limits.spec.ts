import assert from 'node:assert/strict';
import { HttpError } from '../../lib/errors/http-errors.js';
import { checkOutputSize, encoderOptions, MAX_OUTPUT_PIXELS, outputSize } from '../../lib/media/imgproc-limits.js';
import type { ResolvedParams } from '../../lib/media/imgproc-params.js';

const params = (p: Partial<ResolvedParams>): ResolvedParams => ({ fit: 'cover', format: 'png', ...p });

describe('imgproc limits: output size', () => {
  const photo = { width: 400, height: 300 };

  it('follows the aspect ratio when one dimension is given', () => {
    assert.deepEqual(outputSize(photo, params({ width: 100 })), { width: 100, height: 75 });
    assert.deepEqual(outputSize(photo, params({ height: 150 })), { width: 200, height: 150 });
    assert.deepEqual(outputSize({ width: 10, height: 400 }, params({ width: 4000 })), { width: 4000, height: 160000 });
  });

  it('is the box for cover, contain and fill, within it for inside, around it for outside', () => {
    for (const fit of ['cover', 'contain', 'fill'] as const)
      assert.deepEqual(outputSize(photo, params({ width: 50, height: 80, fit })), { width: 50, height: 80 }, fit);
    assert.deepEqual(outputSize(photo, params({ width: 200, height: 200, fit: 'inside' })), {
      width: 200,
      height: 150,
    });
    assert.deepEqual(outputSize(photo, params({ width: 4000, height: 4000, fit: 'outside' })), {
      width: 5333,
      height: 4000,
    });
  });

  it('is the input without w or h, and never rounds to zero', () => {
    assert.deepEqual(outputSize(photo, params({})), photo);
    assert.deepEqual(outputSize({ width: 1000, height: 1 }, params({ width: 10 })), { width: 10, height: 1 });
  });

  it('refuses more than the pixel limit with a 400 naming it, and allows the limit itself', () => {
    const square = { width: 4000, height: 4000 };
    assert.equal(square.width * square.height, MAX_OUTPUT_PIXELS);
    checkOutputSize(square, params({}), 'a.png');
    assert.throws(
      () => {
        checkOutputSize({ width: 4001, height: 4000 }, params({}), 'a.png');
      },
      (err: unknown) =>
        err instanceof HttpError &&
        err.status === 400 &&
        err.code === 'invalid_parameter' &&
        err.message.includes("'a.png'") &&
        err.message.includes('4001x4000') &&
        err.message.includes(String(MAX_OUTPUT_PIXELS)),
    );
  });
});

describe('imgproc limits: encoder settings', () => {
  it('bounds the CPU effort of the slow encoders well below their defaults', () => {
    // sharp's defaults: AVIF effort 4 with 4:4:4 chroma, WebP effort 4, GIF effort 7.
    const avif = encoderOptions('avif', 80) as { effort?: number; chromaSubsampling?: string; quality?: number };
    assert.ok(avif.effort !== undefined && avif.effort <= 2, `avif effort ${avif.effort}`);
    assert.equal(avif.chromaSubsampling, '4:2:0');
    assert.equal(avif.quality, 80);
    const webp = encoderOptions('webp', undefined) as { effort?: number; quality?: number };
    assert.ok(webp.effort !== undefined && webp.effort < 4, `webp effort ${webp.effort}`);
    assert.equal(webp.quality, undefined);
    const gif = encoderOptions('gif', undefined) as { effort?: number };
    assert.ok(gif.effort !== undefined && gif.effort < 7, `gif effort ${gif.effort}`);
    assert.deepEqual(encoderOptions('jpeg', 70), { quality: 70 });
  });
});
