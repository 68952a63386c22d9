import fs from 'node:fs';
import path from 'node:path';
import { startEngine, type Engine, type EngineOptions } from './engine.js';

/**
 * An embedded persistent engine locks its files, so a second process on the same DATA_DIR
 * (bucketctl next to a running server) must connect to the running engine instead of starting
 * its own. The owner advertises its address in DATA_DIR/engine.json.
 */
interface Advert {
  uri: string;
  name: string;
  pid: number;
}

function advertPath(dataDir: string): string {
  return path.join(dataDir, 'engine.json');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function readAdvert(dataDir: string): Advert | null {
  try {
    const advert = JSON.parse(fs.readFileSync(advertPath(dataDir), 'utf8')) as Advert;
    return isAlive(advert.pid) ? advert : null;
  } catch {
    return null;
  }
}

/** Starts the engine and, when it is an embedded persistent one, advertises it. */
export async function startOwnedEngine(opts: EngineOptions): Promise<Engine> {
  const engine = await startEngine(opts);
  if (opts.mongodbUri || !opts.persistent) return engine;
  const file = advertPath(opts.dataDir);
  const advert: Advert = { uri: engine.uri, name: engine.name, pid: process.pid };
  fs.writeFileSync(file, JSON.stringify(advert));
  return {
    ...engine,
    async stop() {
      fs.rmSync(file, { force: true });
      await engine.stop();
    },
  };
}

/** Joins the engine a running server advertises, or starts one of its own. */
export async function joinOrStartEngine(opts: EngineOptions): Promise<Engine> {
  if (!opts.mongodbUri && opts.persistent) {
    const advert = readAdvert(opts.dataDir);
    if (advert) {
      return { name: `${advert.name}, shared with process ${advert.pid}`, uri: advert.uri, async stop() {} };
    }
  }
  return startEngine(opts);
}
