import { startEngine, type Engine } from '../../lib/db/engine.js';

let engine: Engine | null = null;

/** One in-memory engine for the whole run (MONGODB_URI when set). */
export async function startTestEngine(): Promise<Engine> {
  if (!engine) {
    engine = await startEngine({ mongodbUri: process.env.MONGODB_URI || null, persistent: false, dataDir: '' });
    console.log(`\n  Test engine: ${engine.name}\n`);
  }
  return engine;
}

export async function stopTestEngine(): Promise<void> {
  await engine?.stop();
  engine = null;
}

export function testEngine(): Engine {
  if (!engine) throw new Error('the test engine is not started (global hooks missing?)');
  return engine;
}
