/**
 * Counts work in progress per client (by address) and refuses more than `max` at once. One per
 * app instance; counts are per process, which is enough to stop one client tying up a server.
 */
export class PerClientLimit {
  private readonly counts = new Map<string, number>();

  constructor(readonly max: number) {}

  /** A release function when the client is under its limit (call it exactly once), else null. */
  tryAcquire(client: string): (() => void) | null {
    const count = this.counts.get(client) ?? 0;
    if (count >= this.max) return null;
    this.counts.set(client, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(client) ?? 1) - 1;
      if (left > 0) this.counts.set(client, left);
      else this.counts.delete(client);
    };
  }
}
