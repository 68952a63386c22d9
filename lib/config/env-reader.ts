import { ConfigError } from '../errors/domain-errors.js';
import { parseDuration, parseDurations } from './duration.js';
import { OPTIONS, type OptionDecl, type OptionKind } from './options.js';

const DECLARED = new Map(OPTIONS.map((o) => [o.name, o]));

/**
 * Reads the environment through the declarations in options.ts: a variable read here must be
 * declared, with the kind it is read as, so its default and meaning live in one place.
 */
export class EnvReader {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  private decl(name: string, kind: OptionKind): OptionDecl {
    const decl = DECLARED.get(name);
    // A programming error, not a user's: every variable is declared in options.ts.
    if (!decl || decl.kind !== kind) throw new Error(`${name} is not declared as ${kind} in lib/config/options.ts`);
    return decl;
  }

  /** The raw text: the variable when set and not empty, else the declared default. */
  private raw(decl: OptionDecl): string | null {
    const value = this.env[decl.name];
    return value === undefined || value === '' ? decl.default : value;
  }

  text(name: string): string | null {
    return this.raw(this.decl(name, 'text'));
  }

  /** Text with a declared default, so never unset. */
  given(name: string): string {
    const value = this.text(name);
    if (value === null) throw new Error(`${name} has no default in lib/config/options.ts`);
    return value;
  }

  int(name: string): number {
    const decl = this.decl(name, 'int');
    const n = this.integer(decl, this.raw(decl));
    return Math.max(decl.min ?? 0, n ?? 0);
  }

  /** A plan limit: null when unset (no limit); 0 is a limit too. */
  limit(name: string): number | null {
    const decl = this.decl(name, 'limit');
    return this.integer(decl, this.raw(decl));
  }

  flag(name: string): boolean {
    const decl = this.decl(name, 'flag');
    const raw = (this.raw(decl) ?? '').toLowerCase();
    if (raw === '' || raw === 'false' || raw === '0') return false;
    if (raw === 'true' || raw === '1') return true;
    throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  }

  /** A positive duration in seconds; a bare number is seconds. */
  seconds(name: string): number {
    const decl = this.decl(name, 'duration');
    const raw = this.raw(decl) ?? '';
    const ms = parseDuration(raw, 's');
    if (ms === null || ms < 1000 || ms % 1000 !== 0) {
      throw new ConfigError(`${name} must be a duration such as "7d", "12h", "30m" or "45s", got "${raw}"`);
    }
    return ms / 1000;
  }

  /** Comma-separated waits in milliseconds, each with its unit; set but empty: none. */
  durations(name: string): number[] {
    const decl = this.decl(name, 'durations');
    const raw = this.env[name] ?? decl.default ?? '';
    const steps = parseDurations(raw);
    if (steps === null) {
      throw new ConfigError(
        `${name} must be comma-separated waits such as "30s,2m,1h" (units ms, s, m, h, d), got "${raw}"`,
      );
    }
    return steps;
  }

  private integer(decl: OptionDecl, raw: string | null): number | null {
    if (raw === null) return null;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0)
      throw new ConfigError(`${decl.name} must be a non-negative integer, got "${raw}"`);
    return n;
  }
}
