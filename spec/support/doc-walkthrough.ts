import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../lib/project-root.js';
import { freshHarness, type Harness } from './harness.js';

/** The shell blocks of a docs page between its walkthrough markers, in order: what a newcomer copies. */
export function walkthroughBlocks(page: string): string[] {
  const doc = fs.readFileSync(path.join(projectRoot, 'docs', page), 'utf8');
  const start = doc.indexOf('<!-- walkthrough:start');
  const end = doc.indexOf('<!-- walkthrough:end -->');
  assert.ok(start >= 0 && end > start, `docs/${page} has no walkthrough markers`);
  return [...doc.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '');
}

/** Runs a shell script to its end (never blocking this process, which serves its requests). */
export function bash(script: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-euo', 'pipefail', '-c', script],
      { env: { ...process.env, ...env }, cwd },
      (err, out, errOut) => {
        resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${out}${errOut}` });
      },
    );
  });
}

/** A served app for a walkthrough, and a folder its commands run in. */
export interface ServedWalkthrough {
  h: Harness;
  dir: string;
  /** The Bucket `slug` (made now) as the walkthrough's environment: API, READ_KEY, WRITE_KEY. */
  env(slug: string): Promise<NodeJS.ProcessEnv>;
}

/**
 * Hooks of a describe block that serves a fresh app on a port of its own and gives a temporary
 * folder; afterwards the app must have logged no server-side error.
 */
export function servedWalkthrough(): () => ServedWalkthrough {
  let served: ServedWalkthrough | null = null;
  let server: http.Server | null = null;
  before(async () => {
    const h = await freshHarness();
    const listening = http.createServer(h.app);
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    const port = (listening.address() as AddressInfo).port;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'walkthrough-'));
    served = {
      h,
      dir,
      env: async (slug) => {
        const keys = await h.bucket(slug);
        return {
          API: `http://127.0.0.1:${String(port)}/v3/buckets/${slug}`,
          READ_KEY: keys.read_key ?? '',
          WRITE_KEY: keys.write_key ?? '',
        };
      },
    };
  });
  after(async () => {
    const listening = server;
    if (listening) {
      listening.closeAllConnections();
      await new Promise((resolve) => listening.close(resolve));
    }
    if (served) {
      fs.rmSync(served.dir, { recursive: true, force: true });
      assert.deepEqual(served.h.errors, []);
    }
  });
  return () => {
    if (!served) throw new Error('servedWalkthrough used before its before() hook ran');
    return served;
  };
}
