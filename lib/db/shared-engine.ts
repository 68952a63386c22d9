import fs from 'node:fs';
import path from 'node:path';
import { prepareDataDir, restrictFile, writePrivateFile } from './data-dir.js';
import { startEngine, type Engine, type EngineOptions } from './engine.js';

/**
 * An embedded persistent engine locks its files, so a second process on the same DATA_DIR
 * (bucketctl next to a running server) must connect to the running engine instead of starting
 * its own. The owner advertises its address in DATA_DIR/engine.json (mode 0600, like the rest of
 * DATA_DIR: the engine has no authentication).
 */
interface Advert {
  uri: string;
  name: string;
  /** The process that owns the engine (the server), not the engine's own. */
  pid: number;
  /** When the engine last (re)started, and how many times it was restarted after dying. */
  startedAt?: string;
  restarts?: number;
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

/**
 * Starts the engine and, when it is an embedded persistent one, advertises it: the advert is
 * rewritten when the engine is restarted after dying, and removed when it is given up on.
 */
export async function startOwnedEngine(opts: EngineOptions): Promise<Engine> {
  const owned = !opts.mongodbUri && opts.persistent;
  const file = advertPath(opts.dataDir);
  if (owned) {
    prepareDataDir(opts.dataDir);
    // A stale advert from an earlier run is replaced below; narrow it now in case that fails.
    restrictFile(file);
  }
  let engine: Engine | null = null;
  let restarts = 0;
  const advertise = () => {
    if (!engine) return;
    const advert: Advert = {
      uri: engine.uri,
      name: engine.name,
      pid: process.pid,
      startedAt: new Date().toISOString(),
      restarts,
    };
    writePrivateFile(file, JSON.stringify(advert));
  };
  const supervision = opts.supervision ?? {};
  const log = (msg: string) => {
    if (supervision.log) supervision.log(msg);
    else console.error(`[content-api] ${msg}`);
  };
  engine = await startEngine({
    ...opts,
    supervision: {
      ...supervision,
      onRestart: () => {
        restarts++;
        if (owned) {
          try {
            advertise();
          } catch (err) {
            log(`could not update ${file}: ${(err as Error).message}`);
          }
        }
        supervision.onRestart?.();
      },
      onGiveUp: (err) => {
        if (owned) fs.rmSync(file, { force: true });
        supervision.onGiveUp?.(err);
      },
    },
  });
  if (!owned) return engine;
  advertise();
  const started = engine;
  return {
    ...started,
    async stop() {
      fs.rmSync(file, { force: true });
      await started.stop();
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
