import fs from 'node:fs';
import path from 'node:path';

/**
 * DATA_DIR holds the database file and the engine advert (the address of a database without
 * authentication), so only its owner may read it: the directory is 0700 and its files 0600.
 */
export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

const STICKY = 0o1000;

/**
 * Creates the directory (0700) or narrows an existing one to 0700. A shared directory (sticky
 * bit, like /tmp) is left alone: DATA_DIR=/tmp is a mistake, but chmod-ing /tmp would be worse.
 */
export function prepareDataDir(dir: string, warn: (msg: string) => void = defaultWarn): void {
  if (process.platform === 'win32') {
    fs.mkdirSync(dir, { recursive: true });
    return;
  }
  const parent = path.dirname(path.resolve(dir));
  fs.mkdirSync(parent, { recursive: true });
  try {
    fs.mkdirSync(dir, { mode: DIR_MODE });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const stat = fs.statSync(dir);
  if (!stat.isDirectory()) throw new Error(`DATA_DIR ${dir} is not a directory`);
  if ((stat.mode & 0o7777) === DIR_MODE) return;
  if (stat.mode & STICKY) {
    warn(
      `DATA_DIR ${dir} is a shared directory (sticky bit); leaving its permissions alone. Use a directory of its own.`,
    );
    return;
  }
  try {
    fs.chmodSync(dir, DIR_MODE);
  } catch (err) {
    warn(`could not restrict DATA_DIR ${dir} to mode 0700: ${(err as Error).message}`);
  }
}

/** Narrows an existing file to 0600; a missing file is fine. */
export function restrictFile(file: string, warn: (msg: string) => void = defaultWarn): void {
  if (process.platform === 'win32') return;
  try {
    if ((fs.statSync(file).mode & 0o777) !== FILE_MODE) fs.chmodSync(file, FILE_MODE);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') warn(`could not restrict ${file} to mode 0600: ${(err as Error).message}`);
  }
}

/** Creates the file empty (0600) when it does not exist, and narrows it to 0600 when it does. */
export function ensurePrivateFile(file: string, warn: (msg: string) => void = defaultWarn): void {
  fs.closeSync(fs.openSync(file, 'a', FILE_MODE));
  restrictFile(file, warn);
}

/** Replaces the file's content atomically (a reader never sees half of it); the file is 0600. */
export function writePrivateFile(file: string, content: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, content, { mode: FILE_MODE });
    if (process.platform !== 'win32') fs.chmodSync(tmp, FILE_MODE);
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

function defaultWarn(msg: string): void {
  console.error(`[content-api] ${msg}`);
}
