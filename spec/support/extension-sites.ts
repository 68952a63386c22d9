import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { buildZip, extensionZip } from './zip-builder.js';

/** A self-signed certificate for 127.0.0.1 and localhost, made with openssl for this run only. */
export function selfSignedCert(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ext-tls-'));
  try {
    const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1'].concat([
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ]),
      { stdio: 'ignore' },
    );
    return { key: fs.readFileSync(key, 'utf8'), cert: fs.readFileSync(cert, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Each page's answer headers; a page not listed answers 404. */
const PAGES: Readonly<Record<string, Record<string, string>>> = {
  '/open': {},
  '/csp-star': { 'content-security-policy': "default-src 'self'; frame-ancestors *" },
  '/deny': { 'x-frame-options': 'DENY' },
  '/sameorigin': { 'x-frame-options': 'sameorigin' },
  '/allow-from': { 'x-frame-options': 'ALLOW-FROM https://dash.example' },
  '/csp-none': { 'content-security-policy': "frame-ancestors 'none'" },
  '/csp-self': { 'content-security-policy': "script-src 'self'; frame-ancestors 'self'" },
  '/csp-hosts': { 'content-security-policy': 'frame-ancestors https://a.example https://b.example' },
};

/** The archives the sites serve, by path. */
export const ARCHIVES: Readonly<Record<string, Buffer>> = {
  '/ext.zip': extensionZip(),
  '/evil.zip': buildZip([{ name: '../../evil.sh', data: 'rm -rf /' }]),
  '/big.zip': buildZip([{ name: 'big.bin', data: Buffer.alloc(70_000, 1) }]),
  '/not-a-zip.zip': Buffer.from('<html><body>this is a web page, not an archive</body></html>'),
};

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const at = new URL(req.url ?? '/', 'http://sites.test').pathname;
  if (at === '/slow') return; // never answers: the checker's timeout ends it
  if (at === '/redirect-to-open') {
    res.writeHead(302, { location: '/open' }).end();
    return;
  }
  const archive = ARCHIVES[at];
  if (archive) {
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': archive.length }).end(archive);
    return;
  }
  const headers = PAGES[at];
  if (!headers) {
    res.writeHead(404).end('no such page');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html', ...headers }).end('<!doctype html><title>ext</title>');
}

export interface ExtensionSites {
  /** https://127.0.0.1:<port>, with the certificate `ca` the app must be told to trust. */
  https: string;
  http: string;
  ca: string;
  close(): void;
}

async function listen(server: http.Server): Promise<number> {
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

/** An https and an http server with pages that allow or forbid framing, archives, a hang and a redirect. */
export async function startExtensionSites(): Promise<ExtensionSites> {
  const { key, cert } = selfSignedCert();
  const secure = https.createServer({ key, cert }, handler);
  const plain = http.createServer(handler);
  const [securePort, plainPort] = [await listen(secure), await listen(plain)];
  return {
    https: `https://127.0.0.1:${String(securePort)}`,
    http: `http://127.0.0.1:${String(plainPort)}`,
    ca: cert,
    close: () => {
      secure.closeAllConnections();
      plain.closeAllConnections();
      secure.close();
      plain.close();
    },
  };
}
