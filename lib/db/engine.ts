import { EngineUnavailableError } from '../errors/domain-errors.js';
import { startJavaEngine } from './engine-java.js';
import { startMongodEngine } from './engine-mongod.js';
import type { Engine, EngineSupervision } from './engine-types.js';

export type { Engine, EngineSupervision } from './engine-types.js';

export interface EngineOptions {
  mongodbUri: string | null;
  /** true: data under dataDir survives restarts; false: in memory (tests). */
  persistent: boolean;
  dataDir: string;
  /** The embedded JVM's heap limit (`-Xmx`, e.g. "1g"); null: the JVM's default, a quarter of the RAM. */
  maxHeap?: string | null;
  supervision?: EngineSupervision;
}

/**
 * MONGODB_URI when set; otherwise a real mongod if a binary is at hand; otherwise
 * mongo-java-server. Each failure reason is kept so the final error says what to install.
 */
export async function startEngine(opts: EngineOptions): Promise<Engine> {
  if (opts.mongodbUri) {
    return { name: 'MongoDB at MONGODB_URI', uri: opts.mongodbUri, async stop() {} };
  }
  const reasons: string[] = [];
  try {
    return await startMongodEngine(opts);
  } catch (err) {
    reasons.push(`mongod via mongodb-memory-server: ${(err as Error).message}`);
  }
  try {
    return await startJavaEngine({
      persistent: opts.persistent,
      dataDir: opts.dataDir,
      maxHeap: opts.maxHeap ?? null,
      ...(opts.supervision ? { supervision: opts.supervision } : {}),
    });
  } catch (err) {
    reasons.push(`mongo-java-server: ${(err as Error).message}`);
  }
  throw new EngineUnavailableError(
    'No MongoDB engine could be started.\n' +
      reasons.map((r) => `  - ${r}`).join('\n') +
      '\nSet MONGODB_URI to a MongoDB server, or set MONGOMS_SYSTEM_BINARY to a mongod binary, ' +
      'or install Java 17+ and Apache Maven so the embedded engine can run.',
  );
}
