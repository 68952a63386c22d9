import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

export interface ScryptProbe {
  /** Derivations started since the probe was set (each password check or hash is one). */
  readonly calls: number;
  /** The most derivations running at once. */
  readonly maxRunning: number;
  reset(): void;
  restore(): void;
}

type ScryptCallback = (err: Error | null, key: Buffer) => void;
type ScryptFn = (password: crypto.BinaryLike, salt: crypto.BinaryLike, keylen: number, ...rest: unknown[]) => void;

/**
 * Wraps node:crypto's scrypt, including the bindings ES modules imported by name (which
 * syncBuiltinESMExports updates), so a test can count how many password checks really ran.
 */
export function probeScrypt(): ScryptProbe {
  const original = crypto.scrypt as unknown as ScryptFn;
  let calls = 0;
  let running = 0;
  let maxRunning = 0;
  const wrapped: ScryptFn = (password, salt, keylen, ...rest) => {
    const callback = rest.pop() as ScryptCallback;
    calls++;
    running++;
    maxRunning = Math.max(maxRunning, running);
    original(password, salt, keylen, ...rest, (err: Error | null, key: Buffer) => {
      running--;
      callback(err, key);
    });
  };
  (crypto as unknown as { scrypt: ScryptFn }).scrypt = wrapped;
  syncBuiltinESMExports();
  return {
    get calls() {
      return calls;
    },
    get maxRunning() {
      return maxRunning;
    },
    reset() {
      calls = 0;
      maxRunning = running;
    },
    restore() {
      (crypto as unknown as { scrypt: ScryptFn }).scrypt = original;
      syncBuiltinESMExports();
    },
  };
}
