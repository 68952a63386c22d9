import { closeSharedClient } from './harness.js';
import { recordEveryApp, responseCounts, responseMismatches } from './response-recorder.js';
import { startTestEngine, stopTestEngine } from './test-engine.js';

// Before any spec file builds an app (they do so in before() hooks).
recordEveryApp();

export async function mochaGlobalSetup(): Promise<void> {
  await startTestEngine();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await closeSharedClient();
  await stopTestEngine();
}

/**
 * Root hooks: after every test ran, the answers the tests received that the OpenAPI document
 * does not describe (see response-recorder.ts) fail the run, listed.
 */
export const mochaHooks = {
  afterAll(): void {
    const found = responseMismatches();
    if (process.env.RESPONSE_CHECK_REPORT === '1')
      console.log('responses checked against the document:', responseCounts());
    if (found.length > 0)
      throw new Error(`${found.length} answers differ from the OpenAPI document:\n${found.join('\n')}`);
  },
};
