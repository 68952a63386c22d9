import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Config } from '../config.js';
import { plainNotFound } from '../http/route-not-found.js';
import { projectRoot } from '../project-root.js';
import { precompressedAssets } from './precompressed.js';

/** Where `npm run build:studio` (run by `npm install` and `npm start`) writes Studio's files. */
export const STUDIO_DIR = path.join(projectRoot, 'dist', 'studio');

/** Vite names every built asset by its content hash, so a cached copy can never be stale. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Where index.html holds the nonce of its answer. */
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * Studio's page policy: scripts only from Studio's own built assets (`assets`, this origin's
 * /studio/assets/), not from the whole origin, which also serves uploaded files (an upload named
 * evil.js must not run should anything ever include it); no inline script can run. Styles from
 * this origin and the `<style>` elements carrying this answer's nonce (the code editor adds its
 * theme so), API calls to this origin only, images also from the public and upload hosts (media
 * thumbnails), and never inside a frame.
 */
export function studioPolicy(config: Config, nonce: string, assets: string): string {
  const imageHosts = [originOf(config.publicUrl), originOf(config.uploadUrl)].filter((o): o is string => o !== null);
  return [
    "default-src 'self'",
    `script-src ${assets}`,
    `style-src 'self' 'nonce-${nonce}'`,
    `img-src 'self' data: blob: ${[...new Set(imageHosts)].join(' ')}`.trim(),
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Studio's assets as a CSP source: the origin the page was asked for (a path cannot follow
 * 'self'), then the folder. An http source also matches https, so a TLS proxy in front is fine.
 */
function assetsSource(req: Request, config: Config): string {
  const host = req.get('host') ?? '';
  // A Host that is no host name (nor address and port) must not shape the header: the public URL then.
  const origin = HOST.test(host) ? `${req.protocol}://${host}` : (originOf(config.publicUrl) ?? '');
  return `${origin}/studio/assets/`;
}

const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function securityHeaders(config: Config): RequestHandler {
  return (req, res, next) => {
    // A nonce for every answer; only the page uses it, so the other files share the header's shape.
    const nonce = randomBytes(16).toString('base64');
    res.locals.studioNonce = nonce;
    res.setHeader('Content-Security-Policy', studioPolicy(config, nonce, assetsSource(req, config)));
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  };
}

function sendIndex(res: Response, page: string): void {
  res.setHeader('Cache-Control', 'no-cache');
  res.type('html').send(page.replace(NONCE_PLACEHOLDER, String(res.locals.studioNonce)));
}

/**
 * Studio, the web editor: its built files under /studio. These are pages, not API routes, so
 * they stay out of the route registry and the OpenAPI document, as the public file addresses'
 * rules (no key, no role) would not fit them either. Every other path under /studio answers the
 * page, so a deep link or a reload lands in the app, which routes it itself.
 */
export function studioRouter(config: Config, dir = STUDIO_DIR): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  router.use(securityHeaders(config));
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    router.use((_req, res) => {
      res.status(503).type('text/plain').send('Studio is not built: run `npm run build:studio`.\n');
    });
    return router;
  }
  const assets = path.join(dir, 'assets');
  router.use(
    '/assets',
    precompressedAssets(assets, IMMUTABLE),
    express.static(assets, {
      index: false,
      setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE),
    }),
    plainNotFound,
  );
  const page = fs.readFileSync(path.join(dir, 'index.html'), 'utf8');
  router.get(['/', '/index.html'], (_req, res) => {
    sendIndex(res, page);
  });
  router.use(express.static(dir, { index: false, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') }));
  router.get(/.*/, (_req, res) => {
    sendIndex(res, page);
  });
  return router;
}

/** `/studio` itself moves to `/studio/`, so the page's relative asset paths resolve under it. */
export const studioRedirect: RequestHandler = (_req, res) => {
  res.redirect(301, '/studio/');
};
