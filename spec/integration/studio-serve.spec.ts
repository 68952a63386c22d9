import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { loadConfig } from '../../lib/config.js';
import { STUDIO_DIR, studioRouter } from '../../lib/studio/serve.js';
import { freshHarness, type Harness } from '../support/harness.js';

/** One GET over a real socket, the body as the bytes that crossed it (supertest would decompress them). */
async function rawGet(
  app: http.RequestListener,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const server = http.createServer(app).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          });
        })
        .on('error', reject);
    });
  } finally {
    server.close();
  }
}

/** The built scripts and styles, by their path under /studio/assets. */
function builtAssets(): string[] {
  return fs.readdirSync(path.join(STUDIO_DIR, 'assets')).filter((f) => /\.(js|css)$/.test(f));
}

/** The built page's first script, which `npm run build:studio` names by its content hash. */
function builtScript(): string {
  const html = fs.readFileSync(path.join(STUDIO_DIR, 'index.html'), 'utf8');
  const src = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
  assert.ok(src, 'the built index.html loads a module script');
  return src;
}

describe('Studio pages at /studio', () => {
  let h: Harness;
  before(async () => {
    h = await freshHarness({ PUBLIC_URL: 'http://cms.example', UPLOAD_URL: 'http://upload.example' });
  });
  after(() => {
    assert.deepEqual(h.errors, []);
  });

  it('answers the page with a strict policy, no framing and no caching', async () => {
    const res = await request(h.app).get('/studio/').expect(200);
    assert.match(res.type, /html/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['x-frame-options'], 'DENY');
    const csp = String(res.headers['content-security-policy']);
    // Scripts from Studio's assets only, not the whole origin, which also serves uploads.
    assert.match(csp, /script-src http:\/\/127\.0\.0\.1:\d+\/studio\/assets\/(;|$)/);
    const proxied = await request(h.app).get('/studio/').set('Host', 'cms.example').expect(200);
    assert.match(
      String(proxied.headers['content-security-policy']),
      /script-src http:\/\/cms\.example\/studio\/assets\/;/,
    );
    const odd = await request(h.app).get('/studio/').set('Host', 'x; script-src *').expect(200);
    assert.match(String(odd.headers['content-security-policy']), /script-src http:\/\/cms\.example\/studio\/assets\/;/);
    assert.match(csp, /connect-src 'self'(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(csp, /img-src 'self' data: blob: http:\/\/cms\.example http:\/\/upload\.example/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.doesNotMatch(res.text, /<script>|<script (?![^>]*src=)/, 'no inline script in the page');
    // Styles: this origin's files and the <style> elements carrying this answer's nonce.
    const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/=]{24})'(;|$)/.exec(csp)?.[1];
    assert.ok(nonce, csp);
    assert.ok(res.text.includes(`<meta name="csp-nonce" content="${nonce}"`));
    const again = await request(h.app).get('/studio/').expect(200);
    assert.ok(!again.text.includes(nonce), 'each answer has its own nonce');
  });

  it('answers the page for deep links, so a reload lands in the app', async () => {
    const res = await request(h.app).get('/studio/b/blog/objects/posts/0123').expect(200);
    assert.match(res.text, /<div id="app">/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
  });

  it('moves /studio to /studio/', async () => {
    const res = await request(h.app).get('/studio').expect(301);
    assert.equal(res.headers.location, '/studio/');
  });

  it('caches hashed assets for a year and answers 404 for an absent one', async () => {
    const res = await request(h.app).get(builtScript()).expect(200);
    assert.match(res.type, /javascript/);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    const missing = await request(h.app).get('/studio/assets/nothing-here.js').expect(404);
    assert.equal(missing.body.status, 404);
  });

  it('sends scripts and styles compressed when asked (brotli first, then gzip), plainly otherwise', async () => {
    const assets = builtAssets();
    assert.ok(assets.some((f) => f.endsWith('.css')) && assets.some((f) => f.endsWith('.js')), assets.join());
    const decoders = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync };
    for (const name of assets) {
      const raw = fs.readFileSync(path.join(STUDIO_DIR, 'assets', name));
      const url = `/studio/assets/${name}`;
      for (const [accept, encoding] of [
        ['br', 'br'],
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['gzip;q=1, br;q=0.5', 'gzip'],
      ] as const) {
        const res = await rawGet(h.app, url, { 'Accept-Encoding': accept });
        assert.equal(res.status, 200, `${name} ${accept}`);
        assert.equal(res.headers['content-encoding'], encoding, `${name} ${accept}`);
        assert.equal(res.headers.vary, 'Accept-Encoding');
        assert.equal(Number(res.headers['content-length']), res.body.length);
        assert.ok(res.body.length < raw.length, `${name}: ${res.body.length} of ${raw.length} bytes`);
        assert.ok(decoders[encoding](res.body).equals(raw), `${name} ${accept} decompresses to the file`);
        assert.match(String(res.headers['content-type']), name.endsWith('.css') ? /text\/css/ : /javascript/);
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
      }
      for (const headers of [{}, { 'Accept-Encoding': 'identity' }, { 'Accept-Encoding': 'deflate' }]) {
        const plain = await rawGet(h.app, url, headers);
        assert.equal(plain.headers['content-encoding'], undefined, `${name} ${JSON.stringify(headers)}`);
        assert.equal(plain.headers.vary, 'Accept-Encoding');
        assert.ok(plain.body.equals(raw), `${name} ${JSON.stringify(headers)} is the file itself`);
      }
    }
  });

  it('leaves the API as it was: /studio is no route of /v3 and writes to it are unknown paths', async () => {
    await request(h.app).post('/studio/').send({}).expect(404);
    const v3 = await request(h.app).get('/v3/studio').expect(200);
    assert.equal(v3.body.message, 'Route not found');
  });

  it('says how to build Studio when it is not built', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'studio-'));
    const app = express().use('/studio', studioRouter(loadConfig({}), empty));
    const res = await request(app).get('/studio/').expect(503);
    assert.match(res.text, /build:studio/);
    fs.rmSync(empty, { recursive: true });
  });
});
