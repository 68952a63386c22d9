import fs from 'node:fs';
import path from 'node:path';
import { DIR_MODE, prepareDataDir } from './data-dir.js';
import type { Engine } from './engine-types.js';

/**
 * A real mongod through mongodb-memory-server, used only when a binary is already at hand
 * (MONGOMS_SYSTEM_BINARY or an earlier cached download): downloading at run time is off unless
 * the user turns it on with MONGOMS_RUNTIME_DOWNLOAD=true, so a closed network fails fast.
 */
export async function startMongodEngine(opts: { persistent: boolean; dataDir: string }): Promise<Engine> {
  process.env.MONGOMS_RUNTIME_DOWNLOAD ??= 'false';
  const { MongoMemoryServer, MongoBinary } = await import('mongodb-memory-server-core');
  const binary = await MongoBinary.getPath();
  let dbPath: string | undefined;
  if (opts.persistent) {
    prepareDataDir(opts.dataDir);
    dbPath = path.join(opts.dataDir, 'mongod');
    fs.mkdirSync(dbPath, { recursive: true, mode: DIR_MODE });
  }
  const server = await MongoMemoryServer.create({
    binary: { systemBinary: binary },
    instance: dbPath ? { dbPath, storageEngine: 'wiredTiger', ip: '127.0.0.1' } : { ip: '127.0.0.1' },
  });
  return {
    name: `mongod (mongodb-memory-server, ${dbPath ? 'data in ' + dbPath : 'in memory'})`,
    uri: server.getUri(),
    async stop() {
      await server.stop({ doCleanup: !dbPath, force: false });
    },
  };
}
