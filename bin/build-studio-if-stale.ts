import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/project-root.js';

/**
 * `npm start` rebuilds Studio only when something it is built from changed since the last build:
 * a rebuild takes most of a start's time, and a restart after a crash or a deploy should not wait
 * for it. A fresh clone has no build yet, so it builds as before.
 */
const BUILT = path.join(projectRoot, 'dist', 'studio', 'index.html');
const SOURCES = ['studio', 'package-lock.json'];

/** The newest modification time under `entry` (a file, or a folder walked whole). */
function newest(entry: string): number {
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of fs.readdirSync(entry)) latest = Math.max(latest, newest(path.join(entry, name)));
  return latest;
}

function builtAt(): number | null {
  return fs.existsSync(BUILT) ? fs.statSync(BUILT).mtimeMs : null;
}

const built = builtAt();
const changed = Math.max(...SOURCES.map((s) => newest(path.join(projectRoot, s))));
if (built === null || changed > built) {
  const run = spawnSync('npm', ['run', '--silent', 'build:studio'], { cwd: projectRoot, stdio: 'inherit' });
  process.exit(run.status ?? 1);
}
