import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let available: boolean | null = null;

/** Whether mongo-java-server can run here (java and mvn on PATH); tests of it skip otherwise. */
export function javaEngineAvailable(): boolean {
  available ??= ['java -version', 'mvn -v'].every((cmd) => {
    const [bin = '', ...args] = cmd.split(' ');
    return spawnSync(bin, args, { stdio: 'ignore' }).status === 0;
  });
  return available;
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `content-api-${prefix}-`));
  return {
    dir,
    cleanup: () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms);
  });

/** Polls until cond() holds; fails with `what` after timeoutMs. */
export async function waitFor(cond: () => boolean, timeoutMs: number, what: string, stepMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(stepMs);
  }
}

/** Permission bits of a file or directory, e.g. 0o600. */
export function modeOf(file: string): number {
  return fs.statSync(file).mode & 0o7777;
}

/** Whether a process is still there. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
