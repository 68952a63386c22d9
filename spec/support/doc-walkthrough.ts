import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../lib/project-root.js';

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
