import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Express } from 'express';
import { projectRoot } from '../../lib/project-root.js';

/**
 * Parse Server as a benchmark peer. It lives in a package of its own (spec/bench/peers), so the
 * service's install and tests never pull it in; this module loads it from there at run time.
 */

export const PEERS_DIR = path.join(projectRoot, 'spec', 'bench', 'peers');
export const PARSE_APP_ID = 'bench';
const PARSE_MASTER_KEY = 'bench-master-key';
export const PARSE_MOUNT = '/parse';

export const PEERS_INSTALL_HINT =
  'The Parse Server peer is not installed. Install it (into spec/bench/peers, apart from the service) with:\n' +
  '  npm run bench:peers:install';

/** Whether `npm install --prefix spec/bench/peers` has been run. */
export function peersInstalled(): boolean {
  return fs.existsSync(path.join(PEERS_DIR, 'node_modules', 'parse-server', 'package.json'));
}

/** The part of parse-server's exports this module uses. */
interface ParseServerModule {
  ParseServer: new (options: Record<string, unknown>) => { start(): Promise<unknown>; app: Express };
}

interface ExpressModule {
  default: () => Express;
}

async function importPeer<T>(name: string): Promise<T> {
  const resolved = createRequire(path.join(PEERS_DIR, 'package.json')).resolve(name);
  return (await import(pathToFileURL(resolved).href)) as T;
}

/**
 * Parse Server mounted on express exactly as its README shows, with default options apart from
 * silencing its logs (each deprecation notice would otherwise print on every start).
 */
export async function createParseApp(databaseURI: string, port: number): Promise<Express> {
  if (!peersInstalled()) throw new Error(PEERS_INSTALL_HINT);
  const { ParseServer } = await importPeer<ParseServerModule>('parse-server');
  const express = (await importPeer<ExpressModule>('express')).default;
  const server = new ParseServer({
    databaseURI,
    appId: PARSE_APP_ID,
    masterKey: PARSE_MASTER_KEY,
    serverURL: `http://127.0.0.1:${port}${PARSE_MOUNT}`,
    silent: true,
    logLevel: 'error',
    logsFolder: null,
  });
  await server.start();
  const app = express();
  app.use(PARSE_MOUNT, server.app);
  return app;
}
