/* What a declaration of an environment variable says (lib/config/options.ts lists them). */
export type OptionKind =
  /** Any text, used as given. */
  | 'text'
  /** A non-negative integer. */
  | 'int'
  /** A duration: seconds, or a number with a unit (ms, s, m, h, d). */
  | 'duration'
  /** Comma-separated durations, each with its unit. */
  | 'durations'
  /** true or false (also 1 or 0). */
  | 'flag'
  /** A plan limit: a non-negative integer, unset meaning no limit. */
  | 'limit';

export interface OptionDecl {
  name: string;
  kind: OptionKind;
  /** The text read when the variable is unset or empty; null: unset. */
  default: string | null;
  /** When unset, the value follows another setting (shown in place of a default). */
  derived?: string;
  /** Said beside the default (its unit in words, or what unset means). */
  note?: string;
  /** Smaller values are raised to this. */
  min?: number;
  /** Read by a library the service starts, not by the service's own loader. */
  readBy?: string;
  meaning: string;
}
