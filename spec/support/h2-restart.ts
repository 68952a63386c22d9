import { MongoClient, type Db } from 'mongodb';
import { startJavaEngine, type JavaEngine } from '../../lib/db/engine-java.js';
import { tempDir } from './engine-helpers.js';

/**
 * Runs `use` on database `name` of the embedded engine's H2 backend (one file), twice: run 0,
 * then run 1 after the engine was stopped and started again on the same file.
 */
export async function acrossH2Restart(name: string, use: (db: Db, run: number) => Promise<void>): Promise<void> {
  const tmp = tempDir(name);
  let engine: JavaEngine | null = null;
  try {
    for (let run = 0; run < 2; run++) {
      engine = await startJavaEngine({ persistent: true, dataDir: tmp.dir });
      const client = new MongoClient(engine.uri);
      try {
        await use(client.db(name), run);
      } finally {
        await client.close();
      }
      await engine.stop();
      engine = null;
    }
  } finally {
    await engine?.stop();
    tmp.cleanup();
  }
}
