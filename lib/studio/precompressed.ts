import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';

/** The copies the Studio build writes beside each script and style (studio/precompress.ts), best first. */
const COPIES = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/** Each coding's weight in an Accept-Encoding header (`*` stands for the codings it does not name). */
function weights(header: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    if (coding === '') continue;
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    found.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  return found;
}

/**
 * The coding to answer with, of `available` (the server's preference, best first): the one the
 * client weighs most, the server's order breaking ties. Browsers send `gzip, deflate, br` with
 * equal weights, and brotli is the smaller. Identity is acceptable unless refused; no header at
 * all asks for the plain file.
 */
export function preferredEncoding(header: string | undefined, available: readonly string[]): string | undefined {
  if (header === undefined) return 'identity';
  const w = weights(header);
  const weightOf = (coding: string) => w.get(coding) ?? w.get('*') ?? (coding === 'identity' ? 1 : 0);
  let best: string | undefined;
  for (const coding of available) {
    if (weightOf(coding) > 0 && (best === undefined || weightOf(coding) > weightOf(best))) best = coding;
  }
  return best;
}

/**
 * Answers a built asset with its compressed copy when the browser accepts that encoding, and
 * leaves every other request to the plain file server. The copies are made once by the build,
 * so no request spends CPU compressing. Every answer of a file that has copies varies by
 * `Accept-Encoding`, so a shared cache never hands a compressed body to a client that did not ask.
 */
export function precompressedAssets(dir: string, cacheControl: string): RequestHandler {
  // Listed once: the build writes the directory before the server starts and nothing changes it
  // after; only names in the listing are ever opened, so no path can reach outside it.
  const present = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  return (req, res, next) => {
    const name = req.path.slice(1);
    const copies = COPIES.filter((c) => present.has(name + c.suffix));
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !present.has(name) || copies.length === 0) {
      next();
      return;
    }
    res.vary('Accept-Encoding');
    const chosen = preferredEncoding(req.headers['accept-encoding'], [...copies.map((c) => c.encoding), 'identity']);
    const copy = copies.find((c) => c.encoding === chosen);
    if (!copy) {
      next();
      return;
    }
    // The type is the original file's: sendFile would otherwise name it by the copy's suffix.
    res.type(path.extname(name));
    res.setHeader('Content-Encoding', copy.encoding);
    res.setHeader('Cache-Control', cacheControl);
    res.sendFile(path.join(dir, name + copy.suffix), { cacheControl: false, dotfiles: 'deny' }, (err) => {
      // A client that hung up mid-file has nothing left to be told.
      if (err && !res.headersSent) next(err);
    });
  };
}
