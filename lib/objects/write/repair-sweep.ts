import { repairPendingWrites } from './repair.js';
import type { EventDeps } from '../../events/domain-events.js';

/**
 * Work carried longer than this belongs to writes that failed or died, not to writes still running:
 * a write's steps take a few round trips, each bounded by the query time limit.
 */
export const STALE_WORK_MS = 60_000;

/**
 * Repairs the Objects whose carried work (version-write.ts, delete-write.ts) is older than `olderThanMs`. Start-up repair
 * covers a crashed process; this covers a process that lived on while its engine died under a
 * write (the write answered 503 and left its work carried), whose Object would otherwise stay out of
 * step until its next write or the next restart. Repair is idempotent and safe beside writers
 * (the same reasoning as step 0 of a write, version-write.ts). Returns how many were repaired.
 */
export async function repairStalePendingWrites(deps: EventDeps, olderThanMs = STALE_WORK_MS): Promise<number> {
  return repairPendingWrites(deps, new Date(Date.now() - olderThanMs));
}

/** Runs repairStalePendingWrites every `intervalMs` until stopped; a failed round is logged and retried next time. */
export class PendingWriteSweeper {
  private timer: NodeJS.Timeout | null = null;
  /** The round under way, if any: a slow round is not overlapped by the next. */
  private running: Promise<void> | null = null;

  constructor(
    private readonly deps: EventDeps,
    private readonly intervalMs: number,
    private readonly log: (msg: string) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.round().finally(() => {
        this.running = null;
      });
    }, this.intervalMs);
    this.timer.unref();
  }

  private async round(): Promise<void> {
    try {
      const repaired = await repairStalePendingWrites(this.deps);
      if (repaired > 0) this.log(`repaired ${repaired} Objects a failed write had left out of step`);
    } catch (err) {
      this.log(`repairing failed writes: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
