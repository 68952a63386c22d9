import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Express } from 'express';
import type { Db } from 'mongodb';
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

/** The part of the Parse SDK the cloud code below uses. */
interface ParseCloud {
  Cloud: {
    afterSave(
      className: string,
      hook: (req: { object: { id: string; toJSON(): Record<string, unknown> } }) => Promise<void>,
    ): void;
  };
}

/**
 * Cloud code that makes Parse do the durable work the service does on every edit, awaited
 * before the answer as the service's follow-ups are: an immutable revision, an outbox event and
 * the live copy, written with the driver (the Parse SDK's own saves from cloud code go through
 * its in-process REST controller, which breaks with some versions of its router dependency and
 * then fails silently).
 */
function sameWorkAsTheService(db: Db) {
  return (Parse: ParseCloud) => {
    Parse.Cloud.afterSave('Post', async ({ object }) => {
      const data = object.toJSON();
      const at = new Date();
      await Promise.all([
        db.collection('bench_revisions').insertOne({ post: object.id, at, data }),
        db.collection('bench_outbox').insertOne({ type: 'object.edited', post: object.id, at, data }),
        db
          .collection<{ _id: string }>('bench_live')
          .updateOne({ _id: object.id }, { $set: { at, data } }, { upsert: true }),
      ]);
    });
  };
}

/**
 * Parse Server mounted on express exactly as its README shows, with default options apart from
 * silencing its logs (each deprecation notice would otherwise print on every start). With
 * `sameWork`, each save of a post also does the service's durable work in that database.
 */
export async function createParseApp(databaseURI: string, port: number, sameWork?: Db): Promise<Express> {
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
    ...(sameWork && { cloud: sameWorkAsTheService(sameWork) }),
  });
  await server.start();
  const app = express();
  app.use(PARSE_MOUNT, server.app);
  return app;
}
