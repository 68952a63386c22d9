import { closeSharedClient } from './harness.js';
import { startTestEngine, stopTestEngine } from './test-engine.js';

export async function mochaGlobalSetup(): Promise<void> {
  await startTestEngine();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await closeSharedClient();
  await stopTestEngine();
}
